import { resolveBackend } from "./backend/resolve.ts";
import { DEFAULT_CLIENT_OPTIONS, type ClientContext, type ClientOptions } from "./config.ts";
import { InvalidArgumentError } from "./errors.ts";
import { safeSink } from "./events.ts";
import { randomId } from "./ids.ts";
import { timerKeeper } from "./lease/keeper.ts";
import { initializeSentinels, resolveQuarantine } from "./quarantine/quarantine.ts";
import { Lock } from "./lock/lock.ts";
import { FairLock } from "./fair-lock/fair-lock.ts";
import { ReadWriteLock } from "./read-write-lock/read-write-lock.ts";
import { MultiLock } from "./multi-lock/multi-lock.ts";
import { validateMultiLockNames } from "./multi-lock/names.ts";
import { CountDownLatch } from "./latch/latch.ts";
import { PermitExpirableSemaphore } from "./permit-semaphore/permit-semaphore.ts";
import { Semaphore } from "./semaphore/semaphore.ts";
import { validateMs, validateName, validateObject } from "./validate.ts";
import { justInTimeStrategy } from "./wait/just-in-time.ts";

/** Options of `client.lock(name, options)`. */
export interface LockHandleOptions {
  /**
   * Explicit owner id, to share ownership across handles (e.g. a resumed request). Dangerous: two
   * concurrent callers with the same owner both "hold" the lock. @default a random 128-bit id
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
  /** Resolves when background work (abandoned acquires, failed-dispose cleanups) has settled: pass it to `waitUntil`. */
  settled(): Promise<void>;
  /**
   * Writes the restart quarantine's sentinels that are missing (one, or one per cluster slot),
   * so the first grants on a fresh database are not quarantined. Run it once at first deploy:
   * it states that no holder exists, and run after a data loss it would hide that loss.
   */
  initialize(): Promise<{ written: number; existing: number }>;
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
  const context = resolveContext(options);
  return {
    context,
    lock(name, handleOptions) {
      validateName("name", name);
      const o = validateObject("options", handleOptions) as LockHandleOptions;
      const owner = o.owner === undefined ? randomId() : validateName("options.owner", o.owner);
      return new Lock(context, name, owner);
    },
    fairLock(name, handleOptions) {
      validateName("name", name);
      const o = validateObject("options", handleOptions) as LockHandleOptions;
      return new FairLock(context, name, o.owner === undefined ? randomId() : validateName("options.owner", o.owner));
    },
    readWriteLock(name, handleOptions) {
      validateName("name", name);
      const o = validateObject("options", handleOptions) as LockHandleOptions;
      return new ReadWriteLock(context, name, o.owner === undefined ? randomId() : validateName("options.owner", o.owner));
    },
    multiLock(names, handleOptions) {
      const valid = validateMultiLockNames(names);
      const o = validateObject("options", handleOptions) as LockHandleOptions;
      return new MultiLock(context, valid, o.owner === undefined ? randomId() : validateName("options.owner", o.owner));
    },
    semaphore: (name) => new Semaphore(context, validateName("name", name)),
    permitExpirableSemaphore: (name) => new PermitExpirableSemaphore(context, validateName("name", name)),
    countDownLatch: (name) => new CountDownLatch(context, validateName("name", name)),
    settled: () => pendingOf(context),
    initialize: () => initializeSentinels(context),
  };
}

const pending = new WeakMap<ClientContext, Set<Promise<unknown>>>();

async function pendingOf(context: ClientContext): Promise<void> {
  const set = pending.get(context);
  while (set && set.size > 0) await Promise.allSettled([...set]);
}

function resolveContext(options: ClientOptions): ClientContext {
  const o = validateObject("options", options) as unknown as ClientOptions;
  if (o.redis === undefined) throw new InvalidArgumentError("options.redis", "is required");
  const d = DEFAULT_CLIENT_OPTIONS;
  const prefix = o.prefix === undefined ? d.prefix : validateName("options.prefix", o.prefix);
  if (/[{}]/.test(prefix)) throw new InvalidArgumentError("options.prefix", "must not contain { or } (they would change the hash tag)");
  if (o.onEvent !== undefined && typeof o.onEvent !== "function") throw new InvalidArgumentError("options.onEvent", "must be a function");
  const requestTimeoutMs = validateMs("options.requestTimeoutMs", o.requestTimeoutMs ?? d.requestTimeoutMs, { min: 1 });
  const retryWindowMs = validateMs("options.retryWindowMs", o.retryWindowMs ?? d.retryWindowMs);
  const set = new Set<Promise<unknown>>();
  const emit = safeSink(o.onEvent);
  const leaseMs = validateMs("options.leaseMs", o.leaseMs ?? d.leaseMs, { min: 3 });
  const claimWindowMs = validateMs("options.claimWindowMs", o.claimWindowMs ?? d.claimWindowMs, { min: 1 });
  const wait = o.wait ?? justInTimeStrategy();
  const context: ClientContext = {
    backend: resolveBackend(o.redis),
    prefix,
    leaseMs,
    policy: { requestTimeoutMs, retryWindowMs },
    claimWindowMs,
    operationRecordTtlMs: validateMs("options.operationRecordTtlMs", o.operationRecordTtlMs ?? d.operationRecordTtlMs, { min: retryWindowMs + 1 }),
    fenceTtlMs: validateMs("options.fenceTtlMs", o.fenceTtlMs ?? d.fenceTtlMs, { min: 1 }),
    statsTtlMs: validateMs("options.statsTtlMs", o.statsTtlMs ?? d.statsTtlMs, { min: 1 }),
    quarantine: resolveQuarantine(o, { leaseMs, claimWindowMs, returnWithinMs: wait.maxDelayMs + requestTimeoutMs }),
    keeper: o.keeper ?? timerKeeper(),
    wait,
    emit,
    background(work) {
      const tracked = work.catch(() => undefined).finally(() => set.delete(tracked));
      set.add(tracked);
    },
  };
  pending.set(context, set);
  return context;
}
