export { createApp, type RestApp } from "./app.ts";
export type { RestServerOptions, RestRedisClient } from "./options.ts";
export { clusterRedisClient, type RestRedisCluster } from "./cluster-client.ts";
export { DEFAULT_REST_SERVER_OPTIONS } from "./options.ts";
export type { ServerStats } from "./stats.ts";
export type { FaultController } from "./faults.ts";
export type { FaultRule } from "./fault-rule.ts";
export { startRestServer, type StartRestServerOptions, type RunningRestServer } from "./start.ts";
