export { createClient, type EdgelockClient, type LockHandleOptions } from "./client.ts";
export { createLockClient, type LockClient } from "./lock-client.ts";
export {
  DEFAULT_CLIENT_OPTIONS,
  type ClientOptions,
  type ClientContext,
  type PushOptions,
} from "./config.ts";
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
  PermitsRefusedError,
  UpgradeError,
  type PermitsRefusal,
  type LockErrorCode,
  type LeaseLossReason,
} from "./errors.ts";
export type { LockEvent } from "./events.ts";
export type { InitializeResult } from "./initialize.ts";
export type { EvictionPolicy } from "./backend/eviction-policy.ts";
export { Lock } from "./lock/lock.ts";
export type { AsyncDisposableHold } from "./disposable.ts";
export type {
  AcquireOptions,
  HeldLock,
  SerializedLease,
  SerializedLockLease,
  SerializedReadWriteLease,
  LeaseKind,
} from "./lock/types.ts";
export type { SerializedHold, HoldKind, HeldOf, ResumedHold } from "./serialized-hold/types.ts";
export { parseSerializedHold } from "./serialized-hold/parse.ts";
export { FairLock } from "./fair-lock/fair-lock.ts";
export { ReadWriteLock } from "./read-write-lock/read-write-lock.ts";
export { ReadWriteLockSide, type ReadWriteMode } from "./read-write-lock/side.ts";
export { timerKeeper, renewLoop, type Keeper, type KeepTask } from "./lease/keeper.ts";
export {
  backoffStrategy,
  DEFAULT_BACKOFF,
  type WaitStrategy,
  type WaitHint,
  type BackoffOptions,
} from "./wait/strategy.ts";
export type { ServerHint } from "./wait/wait-loop.ts";
export {
  justInTimeStrategy,
  DEFAULT_JUST_IN_TIME,
  type JustInTimeOptions,
} from "./wait/just-in-time.ts";
export { type Backend, TransportError, ReplyError } from "./backend/backend.ts";
export { PushRefusedError } from "./backend/push-refused.ts";
export { upstashRestBackend, type UpstashRestOptions } from "./backend/upstash-rest.ts";
export { nodeRedisBackend, type NodeRedisLike } from "./backend/node-redis.ts";
export {
  nodeRedisClusterBackend,
  type NodeRedisClusterLike,
} from "./backend/node-redis-cluster.ts";
export { resolveBackend, type RedisInput, type UpstashRedisLike } from "./backend/resolve.ts";
export { KEY_SCHEMA_VERSION, DEFAULT_PREFIX } from "./keys.ts";
export { maskId } from "./ids.ts";
export { Semaphore, MAX_PERMITS } from "./semaphore/semaphore.ts";
export type {
  SemaphoreAcquireOptions,
  SemaphoreHold,
  SemaphoreStatus,
  SerializedSemaphoreHold,
} from "./semaphore/types.ts";
export { PermitExpirableSemaphore } from "./permit-semaphore/permit-semaphore.ts";
export type {
  Permit,
  PermitAcquireOptions,
  PermitSemaphoreStatus,
  SerializedPermit,
} from "./permit-semaphore/types.ts";
export { CountDownLatch, MAX_LATCH_COUNT } from "./latch/latch.ts";
export {
  DEFAULT_LATCH_OPTIONS,
  type LatchAwaitOptions,
  type TrySetCountOptions,
} from "./latch/types.ts";
export { MultiLock } from "./multi-lock/multi-lock.ts";
export { MAX_MULTI_LOCK_NAMES } from "./multi-lock/names.ts";
export type { HeldMultiLock, SerializedMultiLease } from "./multi-lock/types.ts";
export { quorumLock, QuorumLock, MAX_QUORUM_DATABASES } from "./quorum/quorum-lock.ts";
export {
  DEFAULT_QUORUM_OPTIONS,
  type QuorumLockOptions,
  type HeldQuorumLock,
  type SerializedQuorumLease,
} from "./quorum/types.ts";
export { QuorumError, type QuorumAnswer, type QuorumFailure } from "./errors.ts";
export * from "./inspect/index.ts";
