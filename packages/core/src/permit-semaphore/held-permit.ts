import { newOperation, type Operation } from "../engine/operation.ts";
import { BackendError, NotHeldError } from "../errors.ts";
import { loseUnlessUnknown, releaseQuietly } from "../lease/dispose.ts";
import { renewFailed, wallExpiry } from "../lease/hold-lease.ts";
import type { LeaseState } from "../lease/lease-state.ts";
import { HoldKeeping, type VersionedHoldInit } from "../lease/hold-keeping.ts";
import { OrderedRenewals } from "../lease/ordered-renewal.ts";
import { checkLeaseWithinQuarantine } from "../quarantine/quarantine.ts";
import { validateMs } from "../validate.ts";
import { claimInBackground, type PendingClaim } from "../wait/pushed-grant.ts";
import { runExtend, runRelease, type PermitSemaphoreRef } from "./calls.ts";
import type { Permit, SerializedPermit } from "./types.ts";

export interface PermitInit extends VersionedHoldInit {
  readonly id: string;
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
  /** Resumed from `toJSON()`: a local end of its lease says nothing of the server's (see Lock's `LockHoldState`). */
  readonly resumed: boolean;
  readonly #renewals: OrderedRenewals;
  readonly #releaseOp: Operation = newOperation();
  readonly #keeping: HoldKeeping;
  #released = false;
  /** The deferred claim of the pushed grant it entered on, if any. */
  #pendingClaim: PendingClaim | undefined;
  /** A renewal was sent (it may have made a lease version entry though its answer never came). */
  #renewalSent = false;

  constructor(ref: PermitSemaphoreRef, init: PermitInit) {
    this.#ref = ref;
    this.id = init.id;
    this.fence = init.fence;
    this.version = init.version;
    this.provisional = init.provisional ?? false;
    this.resumed = this.provisional;
    this.#keeping = new HoldKeeping(
      { ctx: ref.ctx, name: ref.name, fence: init.fence },
      init,
      init.confirmedMs,
      {
        extend: (ms, signal) => this.#renewals.forKeeper(ms, signal),
        serialize: () => this.toJSON(),
      },
    );
    this.lease = this.#keeping.lease;
    const what = `extend of a permit of "${ref.name}"`;
    this.#renewals = new OrderedRenewals(this, ref.ctx.policy.retryWindowMs, what, async (p) => {
      this.#renewalSent = true;
      const r = await runExtend(ref, { ...p, permitId: this.id, version: this.version });
      if (r.status !== "gone") this.version = Math.max(this.version, r.version);
      return r;
    });
  }

  /**
   * @internal Claims a direct grant the waiter entered on, in `afterMs` unless the permit is
   * released, renewed or taken over by a keeper before (see `claimInBackground`, `claimDelayMs`).
   */
  claimInBackground(afterMs: number): void {
    this.#pendingClaim = claimInBackground(
      (work) => this.#ref.ctx.background(work),
      async () => {
        if (this.version === 0 && this.lease.deadlineReason !== "taken-over")
          await this.#renewals.renew(this.#keeping.leaseMs);
      },
      { afterMs, onEnd: (fn) => this.lease.onEnd(fn) },
      renewFailed({ ctx: this.#ref.ctx, name: this.#ref.name, fence: this.fence }),
    );
  }

  /** @internal Hands a kept-alive permit to the keeper, once; rejects with the keeper's error. */
  startKeeping(): Promise<void> {
    return this.#keeping.start();
  }

  get name(): string {
    return this.#ref.name;
  }
  get signal(): AbortSignal {
    return this.lease.signal;
  }
  get leaseMs(): number {
    return this.#keeping.leaseMs;
  }

  async release(): Promise<void> {
    if (this.#released)
      throw new NotHeldError(this.name, `permit of "${this.name}" was already released`);
    this.#released = true;
    this.#keeping.stop();
    // A deferred claim not sent yet would land after the release and abort a released permit's
    // signal: drop it (see claimInBackground).
    this.#pendingClaim?.cancel();
    let result;
    try {
      const renewed = this.version > 0 || this.#renewalSent;
      result = await runRelease(this.#ref, this.id, this.#releaseOp, renewed);
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
    const outcome = await this.#renewals.renew(ms);
    if (outcome === "gone")
      throw new NotHeldError(
        this.name,
        `permit of "${this.name}" is not held (released or expired)`,
      );
    if (outcome === "stale")
      throw new BackendError(`extend of a permit of "${this.name}" lost to other renewals twice`);
    // The keeper renews at a third of the new lease from now on (finding 7).
    this.#keeping.setLeaseMs(ms);
    this.#ref.ctx.emit({ type: "renewed", name: this.name, fence: this.fence, leaseMs: ms });
  }

  toJSON(): SerializedPermit {
    const { ctx, name } = this.#ref;
    return {
      v: 1,
      kind: "permit-expirable-semaphore",
      prefix: ctx.prefix,
      name,
      id: this.id,
      fence: this.fence,
      leaseMs: this.leaseMs,
      expiresAt: wallExpiry(this.lease, this.#ref.ctx.wallClock),
      version: this.version,
    };
  }

  /** Releases on scope exit and never throws: it must not replace the caller's own error. */
  async [Symbol.asyncDispose](): Promise<void> {
    if (this.#released) return;
    const report = { emit: this.#ref.ctx.emit, name: this.name, fence: this.fence };
    await releaseQuietly(() => this.release(), report, loseUnlessUnknown(this.lease));
  }
}
