// `@edgelock/core/serialized-hold`: the serialised-hold union and its validator alone, for code
// that stores or checks holds (a keeper's front door, a job queue) without the primitives.
export type { SerializedHold, HoldKind, HeldOf, ResumedHold } from "./serialized-hold/types.ts";
export { parseSerializedHold } from "./serialized-hold/parse.ts";
export type {
  SerializedLease,
  SerializedLockLease,
  SerializedReadWriteLease,
  LeaseKind,
} from "./lock/types.ts";
export type { SerializedMultiLease } from "./multi-lock/types.ts";
export type { SerializedPermit } from "./permit-semaphore/types.ts";
export type { SerializedSemaphoreHold } from "./semaphore/types.ts";
export type { SerializedQuorumLease } from "./quorum/types.ts";
export { InvalidArgumentError } from "./errors.ts";
