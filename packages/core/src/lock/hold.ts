import { maskId } from "../ids.ts";
import { holdLease, keepHold, wallExpiry } from "../lease/hold-lease.ts";
import type { LeaseState } from "../lease/lease-state.ts";
import type { SerializedLease } from "./types.ts";
import { opsOf } from "./flavor.ts";
import type { LockRef } from "./ops.ts";

export interface HoldInit {
  readonly fence: number;
  readonly sentAt: number;
  readonly confirmedMs: number;
  readonly leaseMs: number;
  readonly keepAlive: boolean;
  readonly maxHoldMs: number | undefined;
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
  #views = 0;
  readonly #stop = new AbortController();
  readonly #onEnd: () => void;
  readonly #init: HoldInit;
  #keeping: Promise<void> | undefined;

  constructor(ref: LockRef, init: HoldInit, onEnd: () => void) {
    this.ref = ref;
    this.fence = init.fence;
    this.leaseMs = init.leaseMs;
    this.#onEnd = onEnd;
    this.#init = init;
    this.lease = holdLease(this.#identity(), init.sentAt, init.confirmedMs, () => this.#close());
  }

  /**
   * Hands a kept-alive hold to the keeper, once (a re-entry shares the first one's keeper).
   * Rejects with the keeper's error when it cannot take the hold.
   */
  startKeeping(): Promise<void> {
    if (!this.#init.keepAlive || !this.lease.active) return Promise.resolve();
    this.#keeping ??= this.#startKeeper(this.#init.sentAt, this.#init.maxHoldMs);
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

  serialize(): SerializedLease {
    return {
      v: 1,
      kind: opsOf(this.ref).kind,
      prefix: this.ref.ctx.prefix,
      name: this.ref.name,
      owner: this.ref.owner,
      fence: this.fence,
      leaseMs: this.leaseMs,
      expiresAt: wallExpiry(this.lease),
    };
  }

  #close(): void {
    this.#stop.abort();
    this.#onEnd();
  }

  #startKeeper(startedAt: number, maxHoldMs: number | undefined): Promise<void> {
    const ref = this.ref;
    return keepHold(
      this.#identity(),
      {
        lease: this.lease,
        leaseMs: () => this.leaseMs,
        startedAt,
        maxHoldMs,
        extend: (ms, signal) => opsOf(ref).extend(ref, this.fence, ms, signal),
        serialize: () => this.serialize(),
      },
      this.#stop.signal,
    );
  }

  #identity() {
    return { ctx: this.ref.ctx, name: this.ref.name, fence: this.fence };
  }

  toString(): string {
    return `Hold(${this.ref.name}, owner ${maskId(this.ref.owner)}, fence ${this.fence})`;
  }
}
