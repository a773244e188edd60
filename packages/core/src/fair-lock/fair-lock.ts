import type { ClientContext } from "../config.ts";
import { fairLockKeys } from "../keys.ts";
import { Lock } from "../lock/lock.ts";
import type { LockRef } from "../lock/ops.ts";
import type { AcquireOptions, HeldLock, SerializedLease } from "../lock/types.ts";
import { fairLockOps } from "./calls.ts";

/**
 * A handle on one fair lock (Redisson's `RFairLock`): reentrant, with strict FIFO among waiters.
 * A free lock goes to the first live waiter, never to a newcomer while a live waiter is queued.
 * Each waiting poll declares, by the server's clock, when the waiter will poll again; a waiter
 * that misses its own deadline (its invocation died) is dropped then, and one that keeps it is
 * never dropped. `tryAcquire` never queues; a waiter that times out or aborts leaves at once.
 *
 * It is the reentrant Lock's machinery (holds, leases, keeper, `toJSON`/`resume`) running the
 * fair lock's own scripts, under keys of its own: a fair lock and a lock of the same name are
 * unrelated.
 * @example
 * const fair = edgelock.fairLock("tickets:42");
 * await fair.withLock(async (held) => serve(held.fence), { waitMs: 10_000 });
 */
export class FairLock {
  readonly #lock: Lock;
  readonly #ref: LockRef;

  /** @internal use `client.fairLock(name)` */
  constructor(ctx: ClientContext, name: string, owner: string) {
    const flavor = { keys: fairLockKeys(ctx.prefix, name), ops: fairLockOps };
    this.#lock = new Lock(ctx, name, owner, flavor);
    this.#ref = { ctx, name, owner, ...flavor };
  }

  get name(): string {
    return this.#lock.name;
  }

  /**
   * Acquires the lock in arrival order, waiting up to `waitMs` (default 0: one attempt, no queue).
   * @throws AcquireTimeoutError when not acquired in time; AbortedError when `signal` aborts.
   */
  acquire(options?: AcquireOptions): Promise<HeldLock> {
    return this.#lock.acquire(options);
  }

  /**
   * `acquire` that answers `null` instead of throwing when not acquired within `waitMs`. Without
   * `waitMs`, one attempt that never queues: `null` when held or when live waiters are queued.
   */
  tryAcquire(options?: AcquireOptions): Promise<HeldLock | null> {
    return this.#lock.tryAcquire(options);
  }

  /**
   * Runs `fn` while holding the lock, and releases it afterwards (also when `fn` throws).
   * Rejects with the `LeaseLostError` when the lease was lost while `fn` ran (its value is
   * dropped: the work may not have been exclusive). When `fn` throws, rejects with `fn`'s own
   * error, unchanged (never wrapped; a loss is then in `held.signal.reason` and the `lost`
   * event). The release never replaces either.
   * @throws what `acquire` throws.
   */
  withLock<T>(fn: (held: HeldLock) => Promise<T> | T, options?: AcquireOptions): Promise<T> {
    return this.#lock.withLock(fn, options);
  }

  /** True while held, and while a direct grant to the queue head awaits its claim. */
  isLocked(): Promise<boolean> {
    return this.#lock.isLocked();
  }

  /** Holds of this handle's owner (0 when it does not hold the lock). */
  holdCount(): Promise<number> {
    return this.#lock.holdCount();
  }

  /** Remaining lease of whoever holds the lock, ms; 0 when it is free. */
  remainingMs(): Promise<number> {
    return this.#lock.remainingMs();
  }

  /** Waiters in the queue whose declared poll deadline has not passed. */
  async waiters(): Promise<number> {
    return (await fairLockOps.inspect(this.#ref)).waiters;
  }

  /** Deletes the lock whoever holds it and hands it to the first live waiter (an operator's tool). */
  forceUnlock(): Promise<boolean> {
    return this.#lock.forceUnlock();
  }

  /** Takes over a fair-lock lease serialised by `held.toJSON()` (see `Lock.resume`). */
  resume(lease: SerializedLease): HeldLock {
    return this.#lock.resume(lease);
  }
}
