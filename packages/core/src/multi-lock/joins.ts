import { now } from "../engine/clock.ts";
import { randomId } from "../ids.ts";
import { grantNumbers, pushedGrantMs } from "../wait/pushed-grant.ts";
import type { ServerHint, WakeAction, WakeContext } from "../wait/wait-loop.ts";
import { leaveInBackground, type MultiGrant } from "./attempt.ts";
import { busyHint } from "./codec.ts";
import type { MultiRef } from "./multi-ref.ts";

/** One join of a later name's queue: in flight, queued there, not joined (free), or failed. */
interface Join {
  readonly opId: string;
  /** Monotonic ms before it was sent: a grant through it came after. */
  readonly sentAt: number;
  /** Within how long it promised the queue to poll again (a queue skips a waiter past that). */
  readonly returnWithinMs: number;
  /**
   * A refresh of an earlier join's place, in flight: that join's answer. A grant through the place
   * may predate the refresh, so its message is judged by the earlier answer until this one comes.
   */
  readonly carried?: { readonly sentAt: number; readonly hint: ServerHint };
  state: "sent" | "queued" | "not-joined" | "failed";
  /** Its grant was entered on: its answer, when it comes, must undo nothing. */
  consumed?: boolean;
  /** Once answered: what its grant message is judged by (the grant came after the join ran). */
  since?: { readonly sentAt: number; readonly hint: ServerHint };
}

/** A grant a message announced: its fence, and until when it may be entered on (monotonic ms). */
interface Heard {
  readonly fence: number;
  readonly sentAt: number;
  /** Undefined: too little of it left to enter on (the waiter claims it by asking). */
  readonly until: number | undefined;
}

/**
 * A multi-lock waiter's joins of its later names' queues, for a multi-lock of single-name groups
 * across slots. Queued at its first name, the waiter also joins each later name's queue (never
 * taking one: ordered acquisition must hold), once it listens for grants. A release frees every
 * name at once, so each is handed to it, each announced on its own channel; the waiter enters when
 * every grant's message has come (`onMessage`), one round trip sooner than asking the later names
 * on the first one's message. Any other course ends in an attempt, as without joins: a first
 * grant whose partners do not follow within moments makes the waiter ask every name; later grants
 * without the first are given back before the next attempt (two waiters whose joins reached a
 * later name in the other order), so no one holds a later name while waiting for an earlier one.
 */
export class LaterJoins {
  readonly #ref: MultiRef;
  #joins: (Join | undefined)[] = [];
  readonly #heard = new Map<number, Heard>();
  #listening = false;
  #queued: { readonly returnWithinMs: number; readonly deadline: number } | undefined;
  /** Cancels the joins in flight when they are dropped (their undo follows their answer). */
  #stop = new AbortController();
  /**
   * Groups whose join is being undone: no new join there until it settled, since the undo would
   * take a grant made through the new one from under its holder (see `trackUndo`).
   */
  readonly #undoing = new Set<number>();
  /** No more joins in this wait (see `beforeAttempt`). */
  #off = false;

  constructor(ref: MultiRef) {
    this.#ref = ref;
  }

  /** An attempt left the waiter queued at the first name: join the later ones once it listens. */
  queuedAtFirst(returnWithinMs: number, deadline: number): void {
    this.#queued = { returnWithinMs, deadline };
    if (this.#listening) this.#send();
  }

  /** The waiter listens for its grants (its streams are open). */
  listen(): void {
    this.#listening = true;
    if (this.#queued !== undefined) this.#send();
  }

  /**
   * Before an attempt: grants of later names heard without the first's are given back (the
   * first went to another waiter), and the joins with them.
   */
  beforeAttempt(): void {
    // Grants heard but not all of them: joins failed this waiter once (split, or a partner's
    // message too late), and it joins no more in this wait. Splits feed on each other (a name
    // given back goes to another waiter without the first), so one that repeats is cut short.
    if (this.#heard.size > 0) this.#off = true;
    if (this.#heard.size > 0 && !this.#heard.has(0)) this.drop(true);
  }

  /**
   * The joins end. `left`: the waiter leaves every queue it joined (and a grant made to it there);
   * otherwise an attempt asked the later names, which ended every join that had landed (a grant
   * claimed, or the attempt's undo left the queue). A join whose outcome is not known is undone.
   */
  drop(left: boolean): void {
    this.#joins.forEach((join, i) => {
      if (join === undefined) return;
      // One in flight is undone once answered (below); until then, no new join there either.
      if (join.state === "sent") this.#undoing.add(i);
      const undo = join.state === "failed" || (left && join.state === "queued");
      if (undo) this.#undo(i, join.opId);
    });
    this.#joins = [];
    this.#heard.clear();
    this.#queued = undefined;
    this.#stop.abort();
    this.#stop = new AbortController();
  }

  /**
   * What a grant message on stream `index` means. `enterable`: the handle may take a hold from
   * messages (no other acquire of it running, no hold of it yet).
   */
  onMessage(
    index: number,
    payload: string,
    since: WakeContext,
    enterable: boolean,
  ): WakeAction<MultiGrant> {
    const parts = grantNumbers(payload, 3);
    const join = this.#joins[index];
    // A join still on its way back may have been handed its name already (it ran; its answer
    // has not come): the grant is this join's, since no earlier join there is left (see #undo).
    // Once answered, a join's answer dates its grants (a grant before it ran is stale by the
    // answer's server time); a refresh in flight keeps the answer of the join it refreshes.
    const context =
      index === 0
        ? since
        : join?.state === "queued"
          ? { ...join.since!, rttMs: since.rttMs }
          : join?.state === "sent"
            ? {
                ...(join.carried ?? { sentAt: join.sentAt, hint: busyHint(0) }),
                rttMs: since.rttMs,
              }
            : undefined;
    // A later name's message from an earlier wait (or a malformed one): not this wait's grant.
    if (context === undefined || parts === undefined) return index === 0 ? "attempt" : "stale";
    const [fence, at, claimMs] = parts as [number, number, number];
    const room = pushedGrantMs({ at, claimMs }, context);
    if (room === "stale") return "stale";
    this.#heard.set(index, {
      fence,
      sentAt: context.sentAt,
      until: room === "attempt" ? undefined : context.sentAt + room,
    });
    const groups = this.#ref.groups;
    const heard = groups.map((_, i) => this.#heard.get(i));
    if (heard.every((h): h is Heard => h?.until !== undefined) && enterable) {
      for (const j of this.#joins) if (j) j.consumed = true;
      this.#joins = [];
      this.#heard.clear();
      return { granted: pushedGrant(heard, since.rttMs) };
    }
    // A partner's message expected within moments: the release frees every name at once.
    const awaited = groups.some((_, i) => {
      const state = this.#joins[i]?.state;
      return !this.#heard.has(i) && (state === "queued" || state === "sent");
    });
    const grace = Math.max(10, since.rttMs / 2);
    if (!this.#heard.has(0)) return { attemptInMs: grace };
    return awaited ? { attemptInMs: grace } : "attempt";
  }

  /** Whether the first name's grant was heard: the next attempt asks every name at once. */
  get firstHeard(): boolean {
    return this.#heard.has(0);
  }

  #send(): void {
    if (this.#off) return;
    const { returnWithinMs, deadline } = this.#queued!;
    // The caller's abort ends the wait, which drops the joins: this signal covers both.
    const how = { signal: this.#stop.signal, deadline };
    const ref = this.#ref;
    ref.groups.forEach((group, i) => {
      const earlier = this.#joins[i];
      if (i === 0 || this.#undoing.has(i) || group.join === undefined) return;
      // An old place is refreshed at the first name's next poll, as that poll refreshes the
      // first's: past its promise a queue skips the waiter, and a grant message is entered on only
      // within the claim window of the answer that dates it (`pushedGrantMs`).
      const age = earlier?.since === undefined ? 0 : now() - earlier.since.sentAt;
      const stale =
        earlier?.state === "queued" &&
        age > Math.min(earlier.returnWithinMs, ref.ctx.claimWindowMs) / 2;
      if (earlier !== undefined && !stale) return;
      const join: Join = {
        opId: randomId(),
        sentAt: now(),
        returnWithinMs,
        state: "sent",
        ...(stale ? { carried: earlier.carried ?? earlier.since! } : {}),
      };
      this.#joins[i] = join;
      const answered = group.join(ref.owner, join.opId, how, returnWithinMs).then(
        ({ hint, sentAt }) => {
          // A refresh that found no place (the name granted to this waiter through it, or the
          // place gone) keeps the earlier answer: a grant message is then judged by it.
          const kept = hint.position === 0 ? join.carried : undefined;
          join.state = hint.position > 0 || kept ? "queued" : "not-joined";
          join.since = kept ?? { sentAt, hint };
        },
        () => {
          join.state = "failed";
        },
      );
      // Dropped before its answer: undone now that it is known (or unknown).
      const settled = answered.then(() => {
        if (this.#joins[i] === join || join.consumed === true) return;
        if (join.state !== "not-joined") this.#undo(i, join.opId);
        else this.#undone(i);
      });
      ref.ctx.background(settled);
    });
  }

  /** Undoes one join; the group is joined again (if still wanted) once the undo has settled. */
  #undo(index: number, opId: string): void {
    this.#undoing.add(index);
    const group = this.#ref.groups[index]!;
    void leaveInBackground(this.#ref, { group, opId }).then(() => this.#undone(index));
  }

  #undone(index: number): void {
    this.#undoing.delete(index);
    if (this.#queued !== undefined && this.#listening) this.#send();
  }
}

/** The hold every heard grant makes together: fences in group order (one name each), unclaimed. */
function pushedGrant(heard: readonly Heard[], rttMs: number): MultiGrant {
  return {
    fences: heard.map((h) => h.fence),
    // A direct grant has no lease version yet (0): the claim is its first renewal.
    versions: heard.map(() => 0),
    reentered: false,
    sentAt: Math.min(...heard.map((h) => h.sentAt)),
    deadline: Math.min(...heard.map((h) => h.until!)),
    pushed: { rttMs },
  };
}

/** Whether joins apply: two or more groups, each of one name that can be joined. */
export function joinable(ref: MultiRef): boolean {
  return ref.groups.length > 1 && ref.groups.every((g) => g.join !== undefined);
}
