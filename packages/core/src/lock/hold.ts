import { maskId } from "../ids.ts";
import { holdLease, keepHold, wallExpiry } from "../lease/hold-lease.ts";
import type { LeaseState } from "../lease/lease-state.ts";
import type { SerializedLease } from "./types.ts";
import { opsOf } from "./flavor.ts";
import type { LockRef } from "./ops.ts";
import { renewHold, type RenewOutcome } from "./renew.ts";
import { testSeams } from "../test-seams.ts";

export interface HoldInit {
  readonly fence: number;
  readonly sentAt: number;
  readonly confirmedMs: number;
  readonly leaseMs: number;
  readonly keepAlive: boolean;
  readonly maxHoldMs: number | undefined;
  /** The lease version on the server when the hold was granted or resumed. */
  readonly version: number;
  /** A resumed hold, not yet confirmed by a renewal of its own. */
  readonly provisional?: boolean;
}

/**
 * One acquisition (one fence) as seen by one handle: the lease shared by its nested holds, and
 * the keeper task that renews it. It ends when its last `HeldLock` is released or the lease is lost.
 */
export class Hold {
  readonly ref: LockRef;
  readonly fence: number;
  readonly lease: LeaseState;
  leaseMs: number;
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
  #views = 0;
  #keeper: AbortController | undefined;
  #renewals: Promise<unknown> = Promise.resolve();
  readonly #startedAt: number;
  readonly #maxHoldMs: number | undefined;
  readonly #onEnd: () => void;
  readonly #keepAlive: boolean;
  #keeping: Promise<void> | undefined;

  constructor(ref: LockRef, init: HoldInit, onEnd: () => void) {
    this.ref = ref;
    this.fence = init.fence;
    this.leaseMs = init.leaseMs;
    this.version = init.version;
    this.provisional = init.provisional ?? false;
    this.resumed = this.provisional;
    this.#startedAt = init.sentAt;
    this.#maxHoldMs = init.maxHoldMs;
    this.#onEnd = onEnd;
    this.#keepAlive = init.keepAlive;
    this.lease = holdLease(this.#identity(), init.sentAt, init.confirmedMs, () => this.#close());
  }

  /**
   * Hands a kept-alive hold to the keeper, once (a re-entry shares the first one's keeper).
   * Rejects with the keeper's error when it cannot take the hold.
   */
  startKeeping(): Promise<void> {
    if (!this.#keepAlive || !this.lease.active) return Promise.resolve();
    this.#keeping ??= this.#startKeeper();
    return this.#keeping;
  }

  attach(): void {
    this.#views++;
  }

  /** A view was released; `serverCount` is what the server has left (0: the lock is free). */
  detach(serverCount: number): void {
    this.#views--;
    if (this.#views <= 0 || serverCount === 0) {
      this.lease.finish();
      this.#close();
    }
  }

  /** Renews the lease: one renewal of this hold in flight at a time (keeper and `extend` alike). */
  renew(leaseMs: number, signal?: AbortSignal): Promise<RenewOutcome> {
    if (testSeams.concurrentRenewals) return renewHold(this, leaseMs, signal);
    const next = this.#renewals.then(() => renewHold(this, leaseMs, signal));
    this.#renewals = next.catch(() => undefined);
    return next;
  }

  /** `extend(ms)` set a new lease: the keeper renews at a third of it from now on (finding 7). */
  setLeaseMs(ms: number): void {
    if (ms === this.leaseMs) return;
    this.leaseMs = ms;
    if (testSeams.keeperIntervalFromFirstLease) return;
    if (this.#keeper !== undefined && this.lease.active) {
      this.#keeper.abort();
      // The keeper took this hold once; if it refuses it now, nothing renews it any more.
      this.#keeping = this.#startKeeper().catch((error: unknown) => {
        this.lease.lose("keeper-failed", error);
      });
    }
  }

  serialize(): SerializedLease {
    return {
      v: 1,
      kind: opsOf(this.ref).kind,
      prefix: this.ref.ctx.prefix,
      name: this.ref.name,
      owner: this.ref.owner,
      fence: this.fence,
      leaseMs: this.leaseMs,
      expiresAt: wallExpiry(this.lease, this.ref.ctx.wallClock),
      version: this.version,
    };
  }

  #close(): void {
    this.#keeper?.abort();
    this.#onEnd();
  }

  #startKeeper(): Promise<void> {
    const stop = (this.#keeper = new AbortController());
    return keepHold(
      this.#identity(),
      {
        lease: this.lease,
        leaseMs: () => this.leaseMs,
        startedAt: this.#startedAt,
        maxHoldMs: this.#maxHoldMs,
        extend: async (ms, signal) => {
          const outcome = await this.renew(ms, signal);
          // renewHold has moved the local deadline itself (a stale answer sets the server's lease)
          return { renewed: outcome !== "gone", sentAt: 0, leaseConfirmed: true };
        },
        serialize: () => this.serialize(),
      },
      stop.signal,
    );
  }

  #identity() {
    return { ctx: this.ref.ctx, name: this.ref.name, fence: this.fence };
  }

  toString(): string {
    return `Hold(${this.ref.name}, owner ${maskId(this.ref.owner)}, fence ${this.fence})`;
  }
}
