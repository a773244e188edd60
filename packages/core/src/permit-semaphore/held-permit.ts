import { newOperation, type Operation } from "../engine/operation.ts";
import { BackendError, NotHeldError } from "../errors.ts";
import { loseUnlessUnknown, releaseQuietly } from "../lease/dispose.ts";
import { holdLease, keepHold, wallExpiry } from "../lease/hold-lease.ts";
import type { LeaseState } from "../lease/lease-state.ts";
import { checkLeaseWithinQuarantine } from "../quarantine/quarantine.ts";
import { validateMs } from "../validate.ts";
import { releaseOnce, type PermitSemaphoreRef } from "./ops.ts";
import { renewPermit } from "./renew.ts";
import type { Permit, SerializedPermit } from "./types.ts";

export interface PermitInit {
  readonly id: string;
  readonly fence: number;
  /** Send time (monotonic) of the request that granted or last confirmed the lease. */
  readonly sentAt: number;
  readonly confirmedMs: number;
  readonly leaseMs: number;
  readonly keepAlive: boolean;
  readonly maxHoldMs: number | undefined;
  /** The lease version on the server when the permit was granted or resumed. */
  readonly version: number;
  /** A resumed permit, not yet confirmed by a renewal of its own. */
  readonly provisional?: boolean;
}

/**
 * One permit as its holder sees it: the Lock's lease rules through the shared `LeaseState`
 * (signal aborts on loss and at the local deadline) and the shared keeper renewal.
 */
export class HeldPermit implements Permit {
  readonly #ref: PermitSemaphoreRef;
  readonly id: string;
  readonly fence: number;
  readonly lease: LeaseState;
  /** The lease version this permit last saw on the server; its renewals carry it. */
  version: number;
  provisional: boolean;
  /** Resumed from `toJSON()`: a local end of its lease says nothing of the server's (see Lock's `Hold`). */
  readonly resumed: boolean;
  #renewals: Promise<unknown> = Promise.resolve();
  readonly #releaseOp: Operation = newOperation();
  readonly #stop = new AbortController();
  readonly #init: PermitInit;
  #keeping: Promise<void> | undefined;
  /** Stops the current keeper only (a new lease restarts it); `#stop` ends the permit. */
  #keeper: AbortController | undefined;
  #leaseMs: number;
  #released = false;

  constructor(ref: PermitSemaphoreRef, init: PermitInit) {
    this.#ref = ref;
    this.id = init.id;
    this.fence = init.fence;
    this.#leaseMs = init.leaseMs;
    this.#init = init;
    this.version = init.version;
    this.provisional = init.provisional ?? false;
    this.resumed = this.provisional;
    const id = { ctx: ref.ctx, name: ref.name, fence: init.fence };
    this.lease = holdLease(id, init.sentAt, init.confirmedMs, () => this.#stop.abort());
  }

  /** @internal Hands a kept-alive permit to the keeper, once; rejects with the keeper's error. */
  startKeeping(): Promise<void> {
    const { ctx, name } = this.#ref;
    const init = this.#init;
    if (!init.keepAlive || !this.lease.active) return Promise.resolve();
    this.#keeping ??= this.#startKeeper(ctx, name, init);
    return this.#keeping;
  }

  #startKeeper(ctx: PermitSemaphoreRef["ctx"], name: string, init: PermitInit): Promise<void> {
    const keeper = (this.#keeper = new AbortController());
    return keepHold(
      { ctx, name, fence: init.fence },
      {
        lease: this.lease,
        leaseMs: () => this.#leaseMs,
        startedAt: init.sentAt,
        maxHoldMs: init.maxHoldMs,
        extend: async (ms, signal) => {
          const outcome = await this.#renew(ms, signal);
          return { renewed: outcome !== "gone", sentAt: 0, leaseConfirmed: true };
        },
        serialize: () => this.toJSON(),
      },
      AbortSignal.any([this.#stop.signal, keeper.signal]),
    );
  }

  /**
   * `extend(ms)` set a new lease: the keeper renews at a third of it from now on, and a renewal
   * it queued with the old lease is cancelled (the Lock's finding 7, on a permit).
   */
  #setLeaseMs(ms: number): void {
    if (ms === this.#leaseMs) return;
    this.#leaseMs = ms;
    if (this.#keeper === undefined || !this.lease.active) return;
    this.#keeper.abort();
    const { ctx, name } = this.#ref;
    // The keeper took this permit once; if it refuses it now, nothing renews it any more.
    this.#keeping = this.#startKeeper(ctx, name, this.#init).catch((error: unknown) => {
      this.lease.lose("keeper-failed", error);
    });
  }

  get name(): string {
    return this.#ref.name;
  }
  get signal(): AbortSignal {
    return this.lease.signal;
  }
  get leaseMs(): number {
    return this.#leaseMs;
  }

  async release(): Promise<void> {
    if (this.#released)
      throw new NotHeldError(this.name, `permit of "${this.name}" was already released`);
    this.#released = true;
    this.#stop.abort();
    let result;
    try {
      result = await releaseOnce(this.#ref, this.id, this.#releaseOp);
    } catch (error) {
      // Unknown outcome: the lease runs out on its own; the holder must not believe it holds.
      this.lease.lose("release-failed", error);
      throw error;
    }
    if (!result.released) {
      this.lease.lose("gone");
      throw new NotHeldError(
        this.name,
        `permit of "${this.name}" is not held (released or expired)`,
      );
    }
    this.lease.finish();
    this.#ref.ctx.emit({ type: "released", name: this.name, fence: this.fence, remainingCount: 0 });
  }

  async extend(ms: number): Promise<void> {
    validateMs("ms", ms, { min: 1 });
    checkLeaseWithinQuarantine(this.#ref.ctx, "ms", ms);
    // A resumed permit may renew before it is trusted (that renewal is what makes it trusted), and
    // after: its local lease may have ended at resume, which says nothing about the server's.
    if (this.#released || (!this.lease.active && !this.resumed))
      throw new NotHeldError(this.name, `permit of "${this.name}" is not held`);
    const outcome = await this.#renew(ms);
    if (outcome === "gone")
      throw new NotHeldError(
        this.name,
        `permit of "${this.name}" is not held (released or expired)`,
      );
    if (outcome === "stale")
      throw new BackendError(`extend of a permit of "${this.name}" lost to other renewals twice`);
    this.#setLeaseMs(ms);
    this.#ref.ctx.emit({ type: "renewed", name: this.name, fence: this.fence, leaseMs: ms });
  }

  toJSON(): SerializedPermit {
    const { ctx, name } = this.#ref;
    return {
      v: 1,
      kind: "permit",
      prefix: ctx.prefix,
      name,
      id: this.id,
      fence: this.fence,
      leaseMs: this.#leaseMs,
      expiresAt: wallExpiry(this.lease, this.#ref.ctx.wallClock),
      version: this.version,
    };
  }

  /** Renews the lease: one renewal of this permit in flight at a time (keeper and `extend` alike). */
  #renew(leaseMs: number, signal?: AbortSignal) {
    const next = this.#renewals.then(() => renewPermit(this.#ref, this, leaseMs, signal));
    this.#renewals = next.catch(() => undefined);
    return next;
  }

  /** Releases on scope exit and never throws: it must not replace the caller's own error. */
  async [Symbol.asyncDispose](): Promise<void> {
    if (this.#released) return;
    const report = { emit: this.#ref.ctx.emit, name: this.name, fence: this.fence };
    await releaseQuietly(() => this.release(), report, loseUnlessUnknown(this.lease));
  }
}
