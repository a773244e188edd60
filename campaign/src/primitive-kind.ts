import type { InspectKind, ReadWriteMode } from "@edgelock/core";

/**
 * A primitive as the campaign names it, in the core's one vocabulary: its kind names
 * (`InspectKind`, the `kind` of a serialised hold, plus "multi-lock"), with a read-write lock's
 * side written `read-write-lock:read` / `read-write-lock:write` (the core's `kind` and `side`),
 * because the campaign drives and counts the two sides apart.
 */
export type PrimitiveKind =
  Exclude<InspectKind, "read-write-lock"> | "multi-lock" | `read-write-lock:${ReadWriteMode}`;
