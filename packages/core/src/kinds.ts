/**
 * Every kind of primitive, in the one vocabulary the library speaks everywhere, written once:
 * `InspectKind` and `LeaseKind` are narrowed from it, `HOLD_KINDS` (the serialised holds' kinds)
 * is filtered from it and must type-check against it, and the campaign's names derive from
 * `InspectKind`.
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
