import type { History, SectionRecord } from "../history/types.ts";
import type { ResolvedCheckOptions } from "./options.ts";

/** Why two holds were allowed to be open together. */
export type Excuse = "frozen" | "dead-on-arrival" | "data-loss" | "late-signal";

/** A data loss began after `fromSeq` and ended before `toSeq`'s observation could follow it. */
export function dataLossBetween(history: History, fromSeq: number, toSeq: number): boolean {
  return history.dataLosses.some((loss) => loss.endSeq > fromSeq && loss.startSeq < toSeq);
}

/** The holder was told of the loss before it used the resource at all (granted already expired). */
export function deadOnArrival(history: History, section: SectionRecord): boolean {
  if (section.toldSeq === undefined) return false;
  const used = firstUses(history).get(section.id);
  return used === undefined || used > section.toldSeq;
}

const cache = new WeakMap<History, { size: number; firstUse: Map<number, number> }>();

/** Each section's first write or read, by sequence (cached while the history does not grow). */
function firstUses(history: History): Map<number, number> {
  const size = history.writes.length + history.reads.length;
  const cached = cache.get(history);
  if (cached && cached.size === size) return cached.firstUse;
  const firstUse = new Map<number, number>();
  for (const use of [...history.writes, ...history.reads]) {
    const seen = firstUse.get(use.section);
    if (seen === undefined || use.seq < seen) firstUse.set(use.section, use.seq);
  }
  cache.set(history, { size, firstUse });
  return firstUse;
}

/**
 * Whether `stale` (entered first) may still have been open when a later hold entered at
 * `laterEnterSeq`: only if the library told it of the loss (a holder whose release the server
 * confirmed held throughout), and only for a reason the options accept.
 */
export function staleExcuse(
  history: History,
  stale: SectionRecord,
  laterEnterSeq: number,
  options: ResolvedCheckOptions,
): Excuse | undefined {
  const unleased = stale.primitive === "semaphore";
  const across = dataLossBetween(history, stale.enterSeq, laterEnterSeq);
  // Semaphore permits are unowned: a release after a data loss can land in the new epoch.
  if (unleased) return across && options.relaxAcrossDataLoss ? "data-loss" : undefined;
  if (stale.end === "released" && !stale.frozen) return undefined;
  if (stale.toldSeq === undefined) return undefined;
  if (stale.frozen) return "frozen";
  if (across) return options.relaxAcrossDataLoss ? "data-loss" : undefined;
  return options.excuseLateSignal ? "late-signal" : undefined;
}
