import { maskId } from "../ids.ts";
import { wallExpiry } from "../lease/hold-lease.ts";
import type { LeaseState } from "../lease/lease-state.ts";
import type { SerializedLease } from "./types.ts";
import { callsOf } from "./calls.ts";
import type { LockRef } from "./lock-ref.ts";
import { HoldKeeping, type VersionedHoldInit } from "../lease/hold-keeping.ts";
import { OrderedRenewals, type RenewOutcome } from "../lease/ordered-renewal.ts";
import type { PendingClaim } from "../wait/pushed-grant.ts";

/**
 * One acquisition (one fence) as seen by one handle: the lease shared by its nested holds, and
 * the keeper task that renews it. It ends when its last `HeldLock` is released or the lease is lost.
 */
export class LockHoldState {
  readonly ref: LockRef;
  readonly fence: number;
  readonly lease: LeaseState;
  /** The lease version this hold last saw on the server; renewals carry it. */
  version: number;
  /** Resumed and not yet confirmed: `expiresAt` came from another machine's wall clock. */
  provisional: boolean;
  /**
   * Resumed from `toJSON()`: its local lease may have ended at once (the carried `expiresAt` less
   * twice the clock error bound), before any renewal could confirm it, so a local end says
   * nothing about the server: `extend()` and `release()` still ask the server.
   */
  readonly resumed: boolean;
  /** The deferred claim of a pushed grant this hold entered on, until it is sent or dropped. */
  pendingClaim: PendingClaim | undefined;
  #views = 0;
  readonly #keeping: HoldKeeping;
  readonly #renewals: OrderedRenewals;

  constructor(ref: LockRef, init: VersionedHoldInit, onEnd: () => void) {
    this.ref = ref;
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
        serialize: () => this.serialize(),
      },
      onEnd,
    );
    this.lease = this.#keeping.lease;
    this.#renewals = new OrderedRenewals(
      this,
      ref.ctx.policy.retryWindowMs,
      `extend "${ref.name}"`,
      async ({ leaseMs, op, budgetMs, signal }) => {
        const r = await callsOf(ref).extend(ref, {
          fence: this.fence,
          version: this.version,
          leaseMs,
          op,
          budgetMs,
          signal,
        });
        if (r.status !== "gone") this.version = Math.max(this.version, r.version);
        return r;
      },
    );
  }

  get leaseMs(): number {
    return this.#keeping.leaseMs;
  }

  /**
   * Hands a kept-alive hold to the keeper, once (a re-entry shares the first one's keeper).
   * Rejects with the keeper's error when it cannot take the hold.
   */
  startKeeping(): Promise<void> {
    return this.#keeping.start();
  }

  attach(): void {
    this.#views++;
  }

  /** A view was released; `serverCount` is what the server has left (0: the lock is free). */
  detach(serverCount: number): void {
    this.#views--;
    if (this.#views <= 0 || serverCount === 0) this.#keeping.finish();
  }

  /** Renews the lease: one renewal of this hold in flight at a time (keeper and `extend` alike). */
  renew(leaseMs: number, signal?: AbortSignal): Promise<RenewOutcome> {
    return this.#renewals.renew(leaseMs, signal);
  }

  /** `extend(ms)` set a new lease: the keeper renews at a third of it from now on (finding 7). */
  setLeaseMs(ms: number): void {
    this.#keeping.setLeaseMs(ms);
  }

  serialize(): SerializedLease {
    return {
      v: 1,
      ...callsOf(this.ref).serializedAs,
      prefix: this.ref.ctx.prefix,
      name: this.ref.name,
      owner: this.ref.owner,
      fence: this.fence,
      leaseMs: this.leaseMs,
      expiresAt: wallExpiry(this.lease, this.ref.ctx.wallClock),
      version: this.version,
    };
  }

  toString(): string {
    return `LockHoldState(${this.ref.name}, owner ${maskId(this.ref.owner)}, fence ${this.fence})`;
  }
}
