import { now } from "../engine/clock.ts";
import { AbortedError, OutcomeUnknownError } from "../errors.ts";
import { holdLease, keepHold, wallExpiry } from "../lease/hold-lease.ts";
import type { LeaseState } from "../lease/lease-state.ts";
import type { MultiRef } from "./multi-ref.ts";
import { splitByGroup } from "./multi-ref.ts";
import type { SerializedMultiLease } from "./types.ts";

export interface MultiHoldInit {
  readonly fences: readonly number[];
  readonly sentAt: number;
  /** Monotonic ms at which the first part may expire. */
  readonly deadline: number;
  readonly leaseMs: number;
  readonly keepAlive: boolean;
  readonly maxHoldMs: number | undefined;
  /** Resumed from another machine's `toJSON()`: trusted from its first confirmed renewal. */
  readonly provisional?: boolean;
}

/**
 * One acquisition of all the names (one fence each) as seen by one handle: the lease its nested
 * holds share, as the Lock's `Hold`. The local deadline is the earliest of the parts', so
 * `signal` aborts as soon as any part may be gone; renewals must confirm every part.
 */
export class MultiHold {
  readonly ref: MultiRef;
  readonly fences: readonly number[];
  readonly lease: LeaseState;
  leaseMs: number;
  /** Resumed and not yet confirmed: `extend()` may still renew it (that renewal makes it trusted). */
  provisional: boolean;
  /** Resumed from `toJSON()`: a local end of its lease says nothing of the server's (see Lock's `Hold`). */
  readonly resumed: boolean;
  #views = 0;
  /** One renewal of this hold in flight at a time, keeper and `extend` alike (as the Lock's). */
  #renewals: Promise<unknown> = Promise.resolve();
  readonly #stop = new AbortController();
  readonly #onEnd: () => void;
  readonly #init: MultiHoldInit;
  #keeping: Promise<void> | undefined;
  /** Stops the current keeper only (a new lease restarts it); `#stop` ends the hold. */
  #keeper: AbortController | undefined;

  constructor(ref: MultiRef, init: MultiHoldInit, onEnd: () => void) {
    this.ref = ref;
    this.fences = init.fences;
    this.leaseMs = init.leaseMs;
    this.provisional = init.provisional ?? false;
    this.resumed = this.provisional;
    this.#onEnd = onEnd;
    this.#init = init;
    this.lease = holdLease(this.#identity(), init.sentAt, init.deadline - init.sentAt, () =>
      this.#close(),
    );
  }

  /** Hands a kept-alive hold to the keeper, once (re-entries share it); rejects with the keeper's error. */
  startKeeping(): Promise<void> {
    if (!this.#init.keepAlive || !this.lease.active) return Promise.resolve();
    this.#keeping ??= this.#startKeeper(this.#init.sentAt, this.#init.maxHoldMs);
    return this.#keeping;
  }

  attach(): void {
    this.#views++;
  }

  /** A view was released; `stillHeld`: every name kept a hold level on the server. */
  detach(stillHeld: boolean): void {
    this.#views--;
    if (this.#views <= 0 || !stillHeld) {
      this.lease.finish();
      this.#close();
    }
  }

  /** Sets every part's lease; `renewed` only when every part confirmed. Groups run in parallel. */
  extendAll(leaseMs: number, signal?: AbortSignal): Promise<{ renewed: boolean; sentAt: number }> {
    // Queued behind the renewal in flight: a keeper renewal confirmed while this one was in doubt
    // would otherwise clear this one's bound (`renewed()`), though this one, sent later with the
    // newer version, may still shorten the lease.
    const next = this.#renewals.then(() => this.#extendOnce(leaseMs, signal));
    this.#renewals = next.catch(() => undefined);
    return next;
  }

  async #extendOnce(
    leaseMs: number,
    signal?: AbortSignal,
  ): Promise<{ renewed: boolean; sentAt: number }> {
    if (signal?.aborted) throw new AbortedError(`extend "${this.ref.label}"`, signal.reason);
    const perGroup = splitByGroup(this.ref, this.fences);
    // While in doubt, the local deadline is no later than what this renewal may set (it may
    // shorten the lease); a confirmed one ends every earlier doubt (they carried older versions).
    const doubt = this.lease.inDoubt(now(), leaseMs);
    let results;
    try {
      results = await Promise.all(
        this.ref.groups.map((g, i) => g.extend(this.ref.owner, perGroup[i]!, leaseMs, signal)),
      );
    } catch (error) {
      // Known not to have applied: no longer a bound. Unknown or aborted: it may have.
      if (!(error instanceof OutcomeUnknownError || error instanceof AbortedError)) doubt.resolve();
      throw error;
    }
    const renewed = results.every((r) => r.renewed.every(Boolean));
    const sentAt = Math.min(...results.map((r) => r.sentAt));
    if (renewed) {
      this.provisional = false;
      this.lease.renewed(sentAt, leaseMs);
    } else doubt.resolve();
    return { renewed, sentAt };
  }

  /** One hold level of every name, in parallel; names still held are released even if another is gone. */
  async releaseAll(
    opId: (group: number) => string,
  ): Promise<{ released: boolean; stillHeld: boolean }> {
    const perGroup = splitByGroup(this.ref, this.fences);
    const results = await Promise.allSettled(
      this.ref.groups.map((g, i) => g.release(this.ref.owner, perGroup[i]!, opId(i))),
    );
    const failed = results.find((r): r is PromiseRejectedResult => r.status === "rejected");
    if (failed) throw failed.reason;
    const answers = results.map(
      (r) => (r as PromiseFulfilledResult<{ released: boolean[]; remaining: number[] }>).value,
    );
    return {
      released: answers.every((a) => a.released.every(Boolean)),
      stillHeld: answers.every((a) => a.remaining.every((c) => c > 0)),
    };
  }

  serialize(): SerializedMultiLease {
    return {
      v: 1,
      kind: "multi-lock",
      prefix: this.ref.ctx.prefix,
      names: this.ref.names,
      fences: this.fences,
      owner: this.ref.owner,
      leaseMs: this.leaseMs,
      expiresAt: wallExpiry(this.lease),
    };
  }

  #close(): void {
    this.#stop.abort();
    this.#onEnd();
  }

  /**
   * `extend(ms)` set a new lease: the keeper renews at a third of it from now on, and a renewal
   * it queued with the old lease is cancelled (the Lock's finding 7, on a multi-lock).
   */
  setLeaseMs(ms: number): void {
    if (ms === this.leaseMs) return;
    this.leaseMs = ms;
    if (this.#keeper === undefined || !this.lease.active) return;
    this.#keeper.abort();
    // The keeper took this hold once; if it refuses it now, nothing renews it any more.
    this.#keeping = this.#startKeeper(this.#init.sentAt, this.#init.maxHoldMs).catch(
      (error: unknown) => this.lease.lose("keeper-failed", error),
    );
  }

  #startKeeper(startedAt: number, maxHoldMs: number | undefined): Promise<void> {
    const keeper = (this.#keeper = new AbortController());
    return keepHold(
      this.#identity(),
      {
        lease: this.lease,
        leaseMs: () => this.leaseMs,
        startedAt,
        maxHoldMs,
        extend: (ms, signal) => this.extendAll(ms, signal),
        serialize: () => this.serialize(),
      },
      AbortSignal.any([this.#stop.signal, keeper.signal]),
    );
  }

  /** Events speak of the multi-lock by its label and its first name's fence. */
  #identity() {
    return { ctx: this.ref.ctx, name: this.ref.label, fence: this.fences[0] ?? 0 };
  }
}
