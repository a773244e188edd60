/**
 * Every kind of primitive, in the one vocabulary the library speaks everywhere: the inspector's
 * kinds, the `kind` of a serialised hold, the keeper's kinds and the campaign's names are all
 * drawn from this list (written once here; each use narrows it).
 */
export const PRIMITIVE_KINDS = [
  "lock",
  "fair-lock",
  "read-write-lock",
  "multi-lock",
  "semaphore",
  "permit-expirable-semaphore",
  "count-down-latch",
  "quorum-lock",
] as const;

export type PrimitiveKind = (typeof PRIMITIVE_KINDS)[number];

/** The kinds whose holds are lock-shaped leases (`SerializedLease`): one name, one fence. */
export type LeaseKind = Extract<PrimitiveKind, "lock" | "fair-lock" | "read-write-lock">;
