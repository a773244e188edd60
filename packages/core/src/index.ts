// The root entry of @edgelock/core. Each primitive is exported through its folder's index.ts,
// whose header names its scripts (.lua), its acquire path and its conformance suite.
export { createClient, type EdgelockClient, type LockHandleOptions } from "./client.ts";
export { createLockClient, type LockClient } from "./lock-client.ts";
export { DEFAULT_CLIENT_OPTIONS, type ClientOptions, type PushOptions } from "./client-options.ts";
export type { ClientContext } from "./client-context.ts";
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
export {
  Lock,
  type AcquireOptions,
  type HeldLock,
  type SerializedLease,
  type SerializedLockLease,
  type SerializedReadWriteLease,
  type LeaseKind,
} from "./lock/index.ts";
export type { AsyncDisposableHold } from "./disposable.ts";
export type { SerializedHold, HoldKind, HeldOf, ResumedHold } from "./serialized-hold/types.ts";
export { parseSerializedHold } from "./serialized-hold/parse.ts";
export { FairLock } from "./fair-lock/index.ts";
export { ReadWriteLock, ReadWriteLockSide, type ReadWriteMode } from "./read-write-lock/index.ts";
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
export {
  Semaphore,
  MAX_PERMITS,
  type SemaphoreAcquireOptions,
  type SemaphoreHold,
  type SemaphoreStatus,
  type SerializedSemaphoreHold,
} from "./semaphore/index.ts";
export {
  PermitExpirableSemaphore,
  type Permit,
  type PermitAcquireOptions,
  type PermitSemaphoreStatus,
  type SerializedPermit,
} from "./permit-semaphore/index.ts";
export {
  CountDownLatch,
  MAX_LATCH_COUNT,
  DEFAULT_LATCH_OPTIONS,
  type LatchAwaitOptions,
  type TrySetCountOptions,
} from "./latch/index.ts";
export {
  MultiLock,
  MAX_MULTI_LOCK_NAMES,
  type HeldMultiLock,
  type SerializedMultiLease,
} from "./multi-lock/index.ts";
export {
  quorumLock,
  QuorumLock,
  MAX_QUORUM_DATABASES,
  DEFAULT_QUORUM_OPTIONS,
  type QuorumLockOptions,
  type HeldQuorumLock,
  type SerializedQuorumLease,
} from "./quorum/index.ts";
export { QuorumError, type QuorumAnswer, type QuorumFailure } from "./errors.ts";
export * from "./inspect/index.ts";
