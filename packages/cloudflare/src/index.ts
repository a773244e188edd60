export {
  waitUntilKeeper,
  DEFAULT_WAIT_UNTIL_KEEPER,
  type WaitUntilKeeperOptions,
} from "./keeper/wait-until-keeper.ts";
export {
  budgetKeeper,
  DEFAULT_BUDGET_KEEPER,
  type BudgetKeeperOptions,
  type HandoffOptions,
} from "./keeper/budget-keeper.ts";
export type { KeeperEvent, KeeperEventSink } from "./keeper/events.ts";
export { LeaseKeeper } from "./durable-object/lease-keeper.ts";
export { DEFAULT_LEASE_KEEPER } from "./durable-object/defaults.ts";
export { leaseKeeperWorker, type LeaseKeeperWorkerOptions } from "./worker.ts";
export {
  leaseKeeperClient,
  DEFAULT_KEEPER_CLIENT,
  type LeaseKeeperClient,
  type LeaseKeeperClientOptions,
} from "./client/lease-keeper-client.ts";
export { bindingTransport } from "./client/binding-transport.ts";
export { httpTransport, type HttpTransportOptions } from "./client/http-transport.ts";
export type { KeeperTransport } from "./client/transport.ts";
export { leaseObjectName } from "./client/lease-object-name.ts";
export { KEEPABLE_KINDS, type KeepableHold, type KeepableKind } from "./keepable-hold.ts";
export {
  redisFromEnv,
  keeperFromEnv,
  type EdgelockEnv,
  type KeeperFromEnvOptions,
} from "./from-env.ts";
export type { KeeperOp, KeeperState, KeeperReason, KeeperStatus, KeepOptions } from "./protocol.ts";
export type {
  DurableObjectNamespaceLike,
  DurableObjectStateLike,
  DurableObjectStorageLike,
  WaitUntil,
} from "./cf-types.ts";
