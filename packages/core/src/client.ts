import { resolveBackend } from "./backend/resolve.ts";
import { DEFAULT_CLIENT_OPTIONS, type ClientContext, type ClientOptions } from "./config.ts";
import { InvalidArgumentError } from "./errors.ts";
import { safeSink } from "./events.ts";
import { randomId } from "./ids.ts";
import { timerKeeper } from "./lease/keeper.ts";
import { Lock } from "./lock/lock.ts";
import { validateMs, validateName, validateObject } from "./validate.ts";
import { backoffStrategy } from "./wait/strategy.ts";

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
  /** Resolves when background work (abandoned acquires, failed-dispose cleanups) has settled: pass it to `waitUntil`. */
  settled(): Promise<void>;
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
    settled: () => pendingOf(context),
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
  const context: ClientContext = {
    backend: resolveBackend(o.redis),
    prefix,
    leaseMs: validateMs("options.leaseMs", o.leaseMs ?? d.leaseMs, { min: 3 }),
    policy: { requestTimeoutMs, retryWindowMs },
    claimWindowMs: validateMs("options.claimWindowMs", o.claimWindowMs ?? d.claimWindowMs, { min: 1 }),
    operationRecordTtlMs: validateMs("options.operationRecordTtlMs", o.operationRecordTtlMs ?? d.operationRecordTtlMs, { min: retryWindowMs + 1 }),
    fenceTtlMs: validateMs("options.fenceTtlMs", o.fenceTtlMs ?? d.fenceTtlMs, { min: 1 }),
    statsTtlMs: d.statsTtlMs,
    keeper: o.keeper ?? timerKeeper(),
    wait: o.wait ?? backoffStrategy(),
    emit,
    background(work) {
      const tracked = work.catch(() => undefined).finally(() => set.delete(tracked));
      set.add(tracked);
    },
  };
  pending.set(context, set);
  return context;
}
