import type { AdversaryHistory, Intent, Primitive } from "../history.ts";

/** Intent kinds that open a critical section when told "ok". */
const OPENING = new Set(["tryAcquire", "acquire", "sem-acquire", "permit-acquire"]);

/** The primitive an intent drove (histories from before the field: Lock or Semaphore by kind). */
export function primitiveOf(intent: Intent): Primitive {
  return intent.primitive ?? (intent.kind.startsWith("sem-") ? "semaphore" : "lock");
}

/**
 * Critical sections per primitive (acquires told "ok"; re-entries are not new sections) and, for
 * the latch, rounds (a `trySetCount` told "ok"), plus the total: the figures the test gate reads.
 */
export function sectionCounts(history: AdversaryHistory): {
  readonly byPrimitive: Partial<Record<Primitive, number>>;
  readonly total: number;
} {
  const byPrimitive: Partial<Record<Primitive, number>> = {};
  let total = 0;
  for (const i of history.intents) {
    const opens = OPENING.has(i.kind) || i.kind === "latch-set";
    if (!opens || i.outcome !== "ok") continue;
    const p = primitiveOf(i);
    byPrimitive[p] = (byPrimitive[p] ?? 0) + 1;
    total += 1;
  }
  return { byPrimitive, total };
}
