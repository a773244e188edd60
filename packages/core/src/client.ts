import { ownerOf, pendingOf, resolveContext, type ClientContext } from "./client-context.ts";
import { PUSH } from "./push-kit.ts";
import type { ClientOptions } from "./client-options.ts";
import { initializeClient, type InitializeResult } from "./initialize.ts";
import { Lock } from "./lock/lock.ts";
import { FairLock } from "./fair-lock/fair-lock.ts";
import { ReadWriteLock } from "./read-write-lock/read-write-lock.ts";
import { MultiLock } from "./multi-lock/multi-lock.ts";
import { validateMultiLockNames } from "./multi-lock/names.ts";
import { CountDownLatch } from "./latch/latch.ts";
import { PermitExpirableSemaphore } from "./permit-semaphore/permit-semaphore.ts";
import { Semaphore } from "./semaphore/semaphore.ts";
import { resumeHold } from "./serialized-hold/resume-hold.ts";
import type { HeldOf, SerializedHold } from "./serialized-hold/types.ts";
import { validateName } from "./validate.ts";

/** Options of `client.lock(name, options)`. */
export interface LockHandleOptions {
  /**
   * Explicit owner id, to share ownership across handles (e.g. a resumed request). Dangerous: two
   * concurrent callers with the same owner both "hold" the lock. Such a handle's waiter claims a
   * pushed grant before it enters (one request more per hand-off): another handle's leave of the
   * same owner, still in flight, could otherwise take the grant from under it.
   * @default a random 128-bit id
   */
  readonly owner?: string;
}

export interface EdgelockClient {
  /** A handle on the reentrant lock `name`, with its own owner id. */
  lock(name: string, options?: LockHandleOptions): Lock;
  /** A handle on the fair (strict FIFO, reentrant) lock `name`, with its own owner id. */
  fairLock(name: string, options?: LockHandleOptions): FairLock;
  /** A handle on the read-write lock `name`: `.read` and `.write` share one owner id of their own. */
  readWriteLock(name: string, options?: LockHandleOptions): ReadWriteLock;
  /**
   * A handle on several locks taken together, all or none (Redisson's MultiLock): lock names, not
   * handles; `{ owner }` as for `lock()`. One request per attempt when the names share a hash tag.
   */
  multiLock(names: readonly string[], options?: LockHandleOptions): MultiLock;
  /** A counting semaphore `name` (Redisson's RSemaphore): FIFO waiters, unowned permits without lease. */
  semaphore(name: string): Semaphore;
  /** A semaphore `name` whose permits each have an id and a lease (Redisson's RPermitExpirableSemaphore). */
  permitExpirableSemaphore(name: string): PermitExpirableSemaphore;
  /** A count-down latch `name` (Redisson's RCountDownLatch) with exactly-once countDown. */
  countDownLatch(name: string): CountDownLatch;
  /**
   * Takes over a hold of any kind serialised by its `toJSON()` (in another invocation, a job
   * queue, a keeper), as the handle's own `resume()` would: Lock, FairLock, either side of a
   * ReadWriteLock, MultiLock, Semaphore, PermitExpirableSemaphore. A leased hold is trusted from
   * its first confirmed renewal (see `Lock.resume`). A quorum-lock hold resumes on its quorum lock.
   * @throws InvalidArgumentError naming the malformed field (`hold.fence`, `hold.names[1]`, …),
   * or `hold.prefix` for a hold made under another prefix than this client's.
   * @example
   * const held = edgelock.resumeHold(JSON.parse(job.data.hold) as SerializedHold);
   * await held.release();
   */
  resumeHold<S extends SerializedHold>(hold: S): HeldOf<S>;
  /** Resolves when background work (abandoned acquires, failed-dispose cleanups) has settled: pass it to `waitUntil`. */
  settled(): Promise<void>;
  /**
   * Writes the restart quarantine's sentinels that are missing (one, or one per cluster slot),
   * so the first grants on a fresh database are not quarantined. Run it once at first deploy:
   * it states that no holder exists, and run after a data loss it would hide that loss. Also
   * reads the server's eviction policy (`eviction`), and reports one other than `noeviction`
   * through an `eviction-policy` event: under it Redis may evict a live lock's key.
   */
  initialize(): Promise<InitializeResult>;
  /** The resolved context, for primitives in other packages. @internal */
  readonly context: ClientContext;
}

/**
 * Creates an edgelock client.
 * @example
 * const edgelock = createClient({ redis: Redis.fromEnv() });
 * await edgelock.lock("orders:42").withLock(async (held) => charge(held.fence), { waitMs: 5_000 });
 */
export function createClient(options: ClientOptions): EdgelockClient {
  const context = resolveContext(options, PUSH);
  return {
    context,
    lock(name, handleOptions) {
      validateName("name", name);
      return new Lock(context, name, ownerOf(handleOptions));
    },
    fairLock(name, handleOptions) {
      validateName("name", name);
      return new FairLock(context, name, ownerOf(handleOptions));
    },
    readWriteLock(name, handleOptions) {
      validateName("name", name);
      return new ReadWriteLock(context, name, ownerOf(handleOptions));
    },
    multiLock(names, handleOptions) {
      const valid = validateMultiLockNames(names);
      return new MultiLock(context, valid, ownerOf(handleOptions));
    },
    semaphore: (name) => new Semaphore(context, validateName("name", name)),
    permitExpirableSemaphore: (name) =>
      new PermitExpirableSemaphore(context, validateName("name", name)),
    countDownLatch: (name) => new CountDownLatch(context, validateName("name", name)),
    resumeHold: (hold) => resumeHold(context, hold),
    settled: () => pendingOf(context),
    initialize: () => initializeClient(context),
  };
}
