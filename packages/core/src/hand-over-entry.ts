// `@edgelock/core/hand-over`: the runtime-neutral half of the lease hand-over, for the adapters
// (`@edgelock/cloudflare`, `@edgelock/vercel`) and any runtime that can `fetch`: the budget keeper
// (renews under `waitUntil` until a budget, then hands the lease over), the client of the Durable
// Object lease keeper with its HTTPS transport, and the wire protocol both sides speak. The Durable
// Object itself and its binding transport are Cloudflare's (`@edgelock/cloudflare`).
export {
  budgetKeeper,
  DEFAULT_BUDGET_KEEPER,
  type BudgetKeeperOptions,
  type HandoffOptions,
  type WaitUntil,
} from "./hand-over/budget-keeper.ts";
export type { KeeperEvent, KeeperEventSink } from "./hand-over/keeper-events.ts";
export type { EdgelockEnv } from "./hand-over/edgelock-env.ts";
export {
  leaseKeeperClient,
  DEFAULT_KEEPER_CLIENT,
  type LeaseKeeperClient,
  type LeaseKeeperClientOptions,
} from "./hand-over/lease-keeper-client.ts";
export { httpTransport, type HttpTransportOptions } from "./hand-over/http-transport.ts";
export type { KeeperTransport } from "./hand-over/transport.ts";
export { leaseObjectName } from "./hand-over/lease-object-name.ts";
export { holdIdentity, sameHold } from "./hand-over/hold-identity.ts";
export {
  KEEPABLE_KINDS,
  checkKeepable,
  type KeepableHold,
  type KeepableKind,
} from "./hand-over/keepable-hold.ts";
export {
  KEEPER_OPS,
  KEEPER_PATH_PREFIX,
  type KeeperOp,
  type KeeperReason,
  type KeeperRequestBody,
  type KeeperState,
  type KeeperStatus,
  type KeepOptions,
} from "./hand-over/protocol.ts";
