export { createClient, type EdgelockClient, type LockHandleOptions } from "./client.ts";
export { DEFAULT_CLIENT_OPTIONS, type ClientOptions, type ClientContext } from "./config.ts";
export {
  LockError,
  InvalidArgumentError,
  NotHeldError,
  AcquireTimeoutError,
  LeaseLostError,
  AbortedError,
  OutcomeUnknownError,
  BackendError,
  type LockErrorCode,
  type LeaseLossReason,
} from "./errors.ts";
export type { LockEvent } from "./events.ts";
export { Lock } from "./lock/lock.ts";
export type { AcquireOptions, HeldLock, SerializedLease } from "./lock/types.ts";
export { timerKeeper, renewLoop, type Keeper, type KeepTask } from "./lease/keeper.ts";
export { backoffStrategy, DEFAULT_BACKOFF, type WaitStrategy, type WaitHint, type BackoffOptions } from "./wait/strategy.ts";
export { type Backend, TransportError, ReplyError } from "./backend/backend.ts";
export { upstashRestBackend, type UpstashRestOptions } from "./backend/upstash-rest.ts";
export { nodeRedisBackend, type NodeRedisLike } from "./backend/node-redis.ts";
export { resolveBackend } from "./backend/resolve.ts";
export { KEY_SCHEMA_VERSION, DEFAULT_PREFIX } from "./keys.ts";
export { maskId } from "./ids.ts";
