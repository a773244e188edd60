export { vercelKeeper, DEFAULT_VERCEL_KEEPER, type VercelKeeperOptions } from "./vercel-keeper.ts";
export { keeperFromEnv, redisFromEnv, type VercelEdgelockEnv } from "./from-env.ts";
export type {
  HandoffOptions,
  KeeperEvent,
  KeeperStatus,
  LeaseKeeperClient,
} from "@edgelock/core/hand-over";
