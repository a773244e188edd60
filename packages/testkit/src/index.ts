export { BACKENDS, type TestBackend, type TestBackendName } from "./backends.ts";
export { cleanupPrefix } from "./cleanup-prefix.ts";
export {
  FaultControlError,
  IntervalOverlapError,
  RedisStartError,
  TestkitError,
  type TestkitErrorCode,
} from "./errors.ts";
export { FaultControl } from "./fault-control.ts";
export type { FaultRule, ServerStats } from "@edgelock/rest-server";
export { freePort } from "./free-port.ts";
export { harness } from "./harness.ts";
export type { HarnessEnv } from "./harness-env.ts";
export {
  IntervalRecorder,
  type Interval,
  type Overlap,
  type Section,
} from "./interval-recorder.ts";
export { keyPrefix, randomRunScope, scopeKeyPrefixes } from "./key-prefix.ts";
export { makeUpstash, type MakeUpstashOptions } from "./make-upstash.ts";
export {
  closeAll,
  makeNodeRedis,
  makeNodeRedisCluster,
  type NodeRedisClient,
  type NodeRedisCluster,
} from "./node-redis-clients.ts";
export {
  startPushRefusingProxy,
  type PushRefusingProxy,
  type PushRefusingProxyOptions,
  type SubscribeAnswer,
} from "./push-refusing-proxy.ts";
export { startRestFront, type RestFront, type RestFrontOptions } from "./rest-front.ts";
export { startRestFrontProcess } from "./rest-process.ts";
export {
  startRedis,
  type RedisProcess,
  type RestartOptions,
  type StartRedisOptions,
} from "./redis/start-redis.ts";
export {
  migrateSlot,
  ownerOf,
  type MigrateSlotOptions,
  type SlotMigration,
} from "./redis/migrate-slot.ts";
export {
  startCluster,
  type RedisClusterProcess,
  type StartClusterOptions,
} from "./redis/start-cluster.ts";
export { startStack, type Stack, type StackOptions } from "./stack.ts";
