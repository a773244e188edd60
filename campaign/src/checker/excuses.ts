import type { History, SectionRecord } from "../history/types.ts";
import type { ResolvedCheckOptions } from "./options.ts";

/** Why two holds were allowed to be open together. */
export type Excuse = "frozen" | "dead-on-arrival" | "data-loss" | "late-signal";

/** A data loss began after `fromSeq` and ended before `toSeq`'s observation could follow it. */
export function dataLossBetween(history: History, fromSeq: number, toSeq: number): boolean {
  return history.dataLosses.some((loss) => loss.endSeq > fromSeq && loss.startSeq < toSeq);
}

/**
 * The hold came back already lost: its signal had aborted when acquire returned (the grant's
 * lease ran out before its answer arrived), so the holder was told before it could do anything.
 */
export function deadOnArrival(section: SectionRecord): boolean {
  return section.toldSeq === section.enterSeq + 1;
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
  // Semaphore permits are unowned and unleased: nothing (no quarantine either) can bound a permit
  // taken before a data loss, and its release can land in the new epoch.
  if (unleased) return across ? "data-loss" : undefined;
  if (stale.end === "released" && !stale.frozen) return undefined;
  if (stale.toldSeq === undefined) return undefined;
  if (stale.frozen) return "frozen";
  if (across) return options.relaxAcrossDataLoss ? "data-loss" : undefined;
  return options.excuseLateSignal ? "late-signal" : undefined;
}
