export {
  waitUntilKeeper,
  DEFAULT_WAIT_UNTIL_KEEPER,
  type WaitUntilKeeperOptions,
} from "./keeper/wait-until-keeper.ts";
export { LeaseKeeper } from "./durable-object/lease-keeper.ts";
export { DEFAULT_LEASE_KEEPER } from "./durable-object/defaults.ts";
export { leaseKeeperWorker, type LeaseKeeperWorkerOptions } from "./worker.ts";
export { bindingTransport } from "./client/binding-transport.ts";
export { redisFromEnv, keeperFromEnv, type KeeperFromEnvOptions } from "./from-env.ts";
export type {
  DurableObjectNamespaceLike,
  DurableObjectStateLike,
  DurableObjectStorageLike,
} from "./cf-types.ts";
// The runtime-neutral hand-over (budget keeper, keeper client, HTTPS transport, wire protocol)
// lives in `@edgelock/core/hand-over`, shared with `@edgelock/vercel`; re-exported here so code
// that imports it from this package keeps working.
export {
  budgetKeeper,
  DEFAULT_BUDGET_KEEPER,
  type BudgetKeeperOptions,
  type HandoffOptions,
  type WaitUntil,
  type KeeperEvent,
  type KeeperEventSink,
  leaseKeeperClient,
  DEFAULT_KEEPER_CLIENT,
  type LeaseKeeperClient,
  type LeaseKeeperClientOptions,
  httpTransport,
  type HttpTransportOptions,
  type KeeperTransport,
  leaseObjectName,
  KEEPABLE_KINDS,
  type KeepableHold,
  type KeepableKind,
  type KeeperOp,
  type KeeperState,
  type KeeperReason,
  type KeeperStatus,
  type KeepOptions,
  type EdgelockEnv,
} from "@edgelock/core/hand-over";
