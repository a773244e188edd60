import type { ClientContext } from "../client-context.ts";
import type { HandleOwner } from "../ids.ts";
import { readWriteLockKeys } from "../keys.ts";
import { Lock } from "../lock/lock.ts";
import type { LockRef } from "../lock/lock-ref.ts";
import { readSideCalls } from "./read-calls.ts";
import { writeSideCalls } from "./write-calls.ts";

export type ReadWriteMode = "read" | "write";

/**
 * One side of a read-write lock (`rw.read` or `rw.write`), with the Lock's API: the reentrant
 * Lock running that side's scripts. Both sides of one `readWriteLock(name)` handle share its
 * owner id: that is what lets the writer take the read lock (downgrade) and what makes a reader's
 * write request an `UpgradeError` (thrown by `acquire`, `tryAcquire` and `withLock` of the write
 * side). Writers queue in FIFO order; readers poll, and wait while a writer holds or a live writer
 * is queued. Write side: `isLocked` while a writer holds (or a grant awaits its claim),
 * `remainingMs` the writer's lease. Read side: `isLocked` while a live reader holds,
 * `remainingMs` the longest reader's lease. `forceUnlock` deletes this side whoever holds it
 * (every reader, or the writer).
 */
export class ReadWriteLockSide extends Lock {
  readonly mode: ReadWriteMode;
  readonly #ref: LockRef;

  /** @internal use `client.readWriteLock(name).read` / `.write` */
  constructor(ctx: ClientContext, name: string, owner: HandleOwner, mode: ReadWriteMode) {
    const calls = mode === "read" ? readSideCalls : writeSideCalls;
    const shape = { keys: readWriteLockKeys(ctx.prefix, name), calls };
    super(ctx, name, owner, shape);
    this.mode = mode;
    this.#ref = { ctx, name, owner: owner.id, ...shape };
  }

  /** Writers in the queue whose declared poll deadline has not passed (readers never queue). */
  async waiters(): Promise<number> {
    return (await writeSideCalls.inspect(this.#ref)).waiters;
  }
}
