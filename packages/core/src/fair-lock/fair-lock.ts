import type { ClientContext } from "../client-context.ts";
import type { HandleOwner } from "../ids.ts";
import { fairLockKeys } from "../keys.ts";
import { Lock } from "../lock/lock.ts";
import type { LockRef } from "../lock/lock-ref.ts";
import { fairLockCalls } from "./calls.ts";

/**
 * A handle on one fair lock (Redisson's `RFairLock`): reentrant, with strict FIFO among waiters.
 * A free lock goes to the first live waiter, never to a newcomer while a live waiter is queued.
 * Each waiting poll declares, by the server's clock, when the waiter will poll again; a waiter
 * that misses its own deadline (its invocation died) is dropped then, and one that keeps it is
 * never dropped. `acquire` takes the lock in arrival order; `tryAcquire` without `waitMs` never
 * queues, and answers `null` when the lock is held or live waiters are queued; a waiter that
 * times out or aborts leaves at once. `isLocked` is true while held, and while a direct grant to
 * the queue head awaits its claim; `forceUnlock` hands the lock to the first live waiter.
 *
 * It is the reentrant Lock (holds, leases, keeper, `toJSON`/`resume`) running the fair lock's own
 * scripts, under keys of its own: a fair lock and a lock of the same name are unrelated.
 * @example
 * const fair = edgelock.fairLock("tickets:42");
 * await fair.withLock(async (held) => serve(held.fence), { waitMs: 10_000 });
 */
export class FairLock extends Lock {
  readonly #ref: LockRef;

  /** @internal use `client.fairLock(name)` */
  constructor(ctx: ClientContext, name: string, owner: HandleOwner) {
    const shape = { keys: fairLockKeys(ctx.prefix, name), calls: fairLockCalls };
    super(ctx, name, owner, shape);
    this.#ref = { ctx, name, owner: owner.id, ...shape };
  }

  /** Waiters in the queue whose declared poll deadline has not passed. */
  async waiters(): Promise<number> {
    return (await fairLockCalls.inspect(this.#ref)).waiters;
  }
}
