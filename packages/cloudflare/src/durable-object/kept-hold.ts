import type { KeepableHold } from "@edgelock/core/hand-over";

// What the object does with a kept hold beyond its identity (`holdIdentity`, `sameHold` in the
// core): the summary a status shows, and the lease versions a renewal hands to the next.

/** What a status says the hold is: its name and fence, or a multi-lock's names and fences. */
export function holdSummary(
  hold: KeepableHold,
): { name: string; fence: number } | { names: readonly string[]; fences: readonly number[] } {
  return hold.kind === "multi-lock"
    ? { names: hold.names, fences: hold.fences }
    : { name: hold.name, fence: hold.fence };
}

/** The kept hold with the lease version(s) a renewal left on the server: the next one carries them. */
export function adoptVersions(kept: KeepableHold, renewed: KeepableHold): KeepableHold {
  if (kept.kind === "multi-lock")
    return renewed.kind === "multi-lock" && renewed.versions
      ? { ...kept, versions: renewed.versions }
      : kept;
  return renewed.kind !== "multi-lock" && renewed.version !== undefined
    ? { ...kept, version: renewed.version }
    : kept;
}
