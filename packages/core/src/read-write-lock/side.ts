import type { ClientContext } from "../config.ts";
import { readWriteLockKeys } from "../keys.ts";
import { Lock } from "../lock/lock.ts";
import type { LockRef } from "../lock/ops.ts";
import type { AcquireOptions, HeldLock, SerializedLease } from "../lock/types.ts";
import { readLockOps } from "./read-ops.ts";
import { writeLockOps } from "./write-ops.ts";

export type ReadWriteMode = "read" | "write";

/**
 * One side of a read-write lock (`rw.read` or `rw.write`), with the Lock's API. Both sides of one
 * `readWriteLock(name)` handle share its owner id: that is what lets the writer take the read
 * lock (downgrade) and what makes a reader's write request an `UpgradeError`.
 */
export class ReadWriteLockSide {
  readonly mode: ReadWriteMode;
  readonly #lock: Lock;
  readonly #ref: LockRef;

  /** @internal use `client.readWriteLock(name).read` / `.write` */
  constructor(ctx: ClientContext, name: string, owner: string, mode: ReadWriteMode) {
    this.mode = mode;
    const ops = mode === "read" ? readLockOps : writeLockOps;
    const flavor = { keys: readWriteLockKeys(ctx.prefix, name), ops };
    this.#lock = new Lock(ctx, name, owner, flavor);
    this.#ref = { ctx, name, owner, ...flavor };
  }

  get name(): string {
    return this.#lock.name;
  }

  /**
   * Acquires this side, waiting up to `waitMs` (default 0: one attempt). Writers queue in FIFO
   * order; readers poll, and wait while a writer holds or a live writer is queued.
   * @throws UpgradeError (write side) when this owner holds the read lock; AcquireTimeoutError;
   * AbortedError.
   */
  acquire(options?: AcquireOptions): Promise<HeldLock> {
    return this.#lock.acquire(options);
  }

  /**
   * `acquire` that answers `null` instead of throwing when not acquired within `waitMs`; without
   * `waitMs`, one attempt that never queues. Throws `UpgradeError` like `acquire`.
   */
  tryAcquire(options?: AcquireOptions): Promise<HeldLock | null> {
    return this.#lock.tryAcquire(options);
  }

  /**
   * Runs `fn` while holding this side, and releases it afterwards (also when `fn` throws).
   * Rejects with the `LeaseLostError` when the lease was lost while `fn` ran (its value is
   * dropped: the work may not have been exclusive). When `fn` throws, rejects with `fn`'s own
   * error, unchanged (never wrapped; a loss is then in `held.signal.reason` and the `lost`
   * event). The release never replaces either.
   * @throws what `acquire` throws.
   */
  withLock<T>(fn: (held: HeldLock) => Promise<T> | T, options?: AcquireOptions): Promise<T> {
    return this.#lock.withLock(fn, options);
  }

  /** Write side: a writer holds (or a grant awaits its claim). Read side: a live reader holds. */
  isLocked(): Promise<boolean> {
    return this.#lock.isLocked();
  }

  /** This owner's holds of this side (0 when none). */
  holdCount(): Promise<number> {
    return this.#lock.holdCount();
  }

  /** Write side: the writer's remaining lease. Read side: the longest reader's. 0 when free. */
  remainingMs(): Promise<number> {
    return this.#lock.remainingMs();
  }

  /** Writers in the queue whose declared poll deadline has not passed (readers never queue). */
  async waiters(): Promise<number> {
    return (await writeLockOps.inspect(this.#ref)).waiters;
  }

  /** Deletes this side whoever holds it (every reader, or the writer): an operator's tool. */
  forceUnlock(): Promise<boolean> {
    return this.#lock.forceUnlock();
  }

  /** Takes over a lease of this side serialised by `held.toJSON()` (see `Lock.resume`). */
  resume(lease: SerializedLease): HeldLock {
    return this.#lock.resume(lease);
  }
}
