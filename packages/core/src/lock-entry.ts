// `@edgelock/core/lock`: the reentrant Lock alone, for the smallest Worker bundles.
export { createLockClient, type LockClient } from "./lock-client.ts";
export type { LockHandleOptions } from "./client.ts";
export { DEFAULT_CLIENT_OPTIONS, type ClientOptions, type PushOptions } from "./client-options.ts";
export type { RedisInput, UpstashRedisLike } from "./backend/resolve.ts";
export { Lock, type AcquireOptions, type HeldLock, type SerializedLease } from "./lock/index.ts";
export type { AsyncDisposableHold } from "./disposable.ts";
export {
  LockError,
  InvalidArgumentError,
  NotHeldError,
  AcquireTimeoutError,
  LeaseLostError,
  AbortedError,
  OutcomeUnknownError,
  BackendError,
  KeeperError,
  type LockErrorCode,
  type LeaseLossReason,
} from "./errors.ts";
export type { LockEvent } from "./events.ts";
export type { ServerHint } from "./wait/wait-loop.ts";
export { timerKeeper, type Keeper, type KeepTask } from "./lease/keeper.ts";
