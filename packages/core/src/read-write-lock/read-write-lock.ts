import type { ClientContext } from "../client-context.ts";
import type { HandleOwner } from "../ids.ts";
import { ReadWriteLockSide } from "./side.ts";

/**
 * A handle on one read-write lock (Redisson's `RReadWriteLock`): readers share, a writer
 * excludes readers and other writers. Writer preference: a live queued writer blocks new readers,
 * so a stream of readers cannot starve writers. Each reader has its own lease, tracked by the
 * server's clock, so an expired reader stops counting at once and the state lasts as long as the
 * longest reader. Both sides are reentrant; the writer may take the read lock (downgrade), and a
 * reader asking for the write lock gets `UpgradeError` instead of a deadlock. Writers get fencing
 * tokens; a read session's `fence` comes from the same sequence (above every earlier writer's).
 * @example
 * const rw = edgelock.readWriteLock("catalog");
 * const price = await rw.read.withLock(() => readPrice(), { waitMs: 2_000 });
 * await rw.write.withLock((held) => writePrice(held.fence), { waitMs: 5_000 });
 */
export class ReadWriteLock {
  readonly read: ReadWriteLockSide;
  readonly write: ReadWriteLockSide;

  /** @internal use `client.readWriteLock(name)` */
  constructor(ctx: ClientContext, name: string, owner: HandleOwner) {
    this.read = new ReadWriteLockSide(ctx, name, owner, "read");
    this.write = new ReadWriteLockSide(ctx, name, owner, "write");
  }

  get name(): string {
    return this.read.name;
  }
}
