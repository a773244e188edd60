import type { HeldLock } from "@edgelock/core";
import { offsetAt, runSkewed, type Skew } from "../../world/clock-skew.ts";
import type { AdversaryHistory, Belief, Intent, IntentKind, Primitive } from "../history.ts";
import { realNow, runInIntent } from "../world/intent-context.ts";

/** What the ledger reads off any leased hold: its signal and its local deadline. */
export interface LeaseView {
  readonly signal: AbortSignal;
  toJSON(): { readonly expiresAt: number };
}

interface LiveHold {
  readonly belief: Belief;
  readonly held: LeaseView;
  readonly skew: Skew;
}

/**
 * What the clients did and were told: every public call (intent) with its outcome, every hold a
 * client believed in, and, after each script run, each live hold's local deadline.
 */
export class Ledger {
  readonly #history: AdversaryHistory;
  readonly #live = new Map<number, LiveHold>();
  #nextIntent = 0;
  #nextHold = 0;

  constructor(history: AdversaryHistory) {
    this.#history = history;
  }

  /** Runs one public call as an intent; its requests (background work included) are charged to it. */
  async intent<T>(
    fields: {
      actor: string;
      kind: IntentKind;
      resource: string;
      owner: string;
      permits?: number;
      holdId?: number;
      primitive?: Primitive;
      resources?: readonly string[];
      round?: number;
      waitMs?: number;
    },
    fn: (intent: Intent) => Promise<T>,
  ): Promise<{ ok: true; value: T } | { ok: false; code: string }> {
    const intent: Intent = {
      id: this.#nextIntent++,
      actor: fields.actor,
      kind: fields.kind,
      ...(fields.primitive === undefined ? {} : { primitive: fields.primitive }),
      resource: fields.resource,
      ...(fields.resources === undefined ? {} : { resources: fields.resources }),
      ...(fields.round === undefined ? {} : { round: fields.round }),
      ...(fields.waitMs === undefined || fields.waitMs === 0 ? {} : { waitMs: fields.waitMs }),
      owner: fields.owner,
      startedAt: realNow(),
      endedAt: null,
      outcome: null,
      fence: null,
      permits: fields.permits ?? 0,
      holdId: fields.holdId ?? null,
    };
    this.#history.intents.push(intent);
    try {
      const value = await runInIntent(intent.id, () => fn(intent));
      intent.outcome ??= "ok";
      return { ok: true, value };
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      intent.outcome = typeof code === "string" ? code : `UNTYPED:${String(error)}`;
      return { ok: false, code: intent.outcome };
    } finally {
      intent.endedAt = realNow();
    }
  }

  /** A client was told it holds `held` (a lock hold): from now on it acts on it. */
  believe(
    held: HeldLock,
    skew: Skew,
    fields: { resource: string; keepAlive: boolean; resumed: boolean },
  ): number {
    const lease = runSkewed(skew, () => held.toJSON());
    return this.believeLease(held, skew, { ...fields, owner: lease.owner, fence: held.fence });
  }

  /**
   * A client was told it holds a leased hold of any kind (a lock part of a multi-lock, a read or
   * write session, a permit whose "owner" is its id): from now on it acts on it.
   */
  believeLease(
    held: LeaseView,
    skew: Skew,
    fields: {
      resource: string;
      owner: string;
      fence: number;
      keepAlive: boolean;
      resumed: boolean;
      mode?: Belief["mode"];
      client?: number;
    },
  ): number {
    const belief: Belief = {
      holdId: this.#nextHold++,
      resource: fields.resource,
      owner: fields.owner,
      fence: fields.fence,
      toldAt: realNow(),
      releasedAt: null,
      abortedAt: null,
      abortReason: null,
      keepAlive: fields.keepAlive,
      resumed: fields.resumed,
      ...(fields.mode === undefined ? {} : { mode: fields.mode }),
      ...(fields.client === undefined ? {} : { client: fields.client }),
    };
    this.#history.beliefs.push(belief);
    const onAbort = () => {
      belief.abortedAt ??= realNow();
      belief.abortReason ??= String((held.signal.reason as { reason?: unknown })?.reason ?? "?");
    };
    if (held.signal.aborted) onAbort();
    else held.signal.addEventListener("abort", onAbort, { once: true });
    this.#live.set(belief.holdId, { belief, held, skew });
    return belief.holdId;
  }

  /** A semaphore hold: permits some client believes it has (no lease). */
  believePermits(resource: string, owner: string, permits: number): number {
    const belief: Belief = {
      holdId: this.#nextHold++,
      resource,
      owner,
      fence: permits,
      toldAt: realNow(),
      releasedAt: null,
      abortedAt: null,
      abortReason: null,
      keepAlive: false,
      resumed: false,
    };
    this.#history.beliefs.push(belief);
    return belief.holdId;
  }

  /** The client stops acting on the hold (it starts releasing it, or handed it to another). */
  letGo(holdId: number): void {
    const belief = this.#history.beliefs[holdId];
    if (belief) belief.releasedAt ??= realNow();
    this.#live.delete(holdId);
  }

  /**
   * After a script run: each live lock hold's local deadline, on the real clock. Each sample is
   * timed by its own reading, not the loop's start: a hold whose local lease has run out (its
   * abort timer not yet fired on a busy event loop) reads `expiresAt` = now, and a pause of the
   * process earlier in the loop (GC, the OS) would otherwise show that "now" as a deadline still
   * ahead (the CI gate at c209a8c reported one such line, "believed for 12 ms more; the server
   * has free", its history lost; see test/ledger-sample.unit.test.ts). The
   * skew taken off is the larger of the client's offsets around the reading, so a pause inside it
   * cannot stretch a drifting clock's deadline either.
   */
  sample(seq: number): void {
    for (const { belief, held, skew } of this.#live.values()) {
      if (belief.abortedAt !== null || held.signal.aborted) continue;
      const before = realNow();
      const wall = runSkewed(skew, () => held.toJSON().expiresAt);
      const at = realNow();
      this.#history.samples.push({
        seq,
        holdId: belief.holdId,
        at,
        deadline: wall - Math.max(offsetAt(skew, before), offsetAt(skew, at)),
      });
    }
  }
}
