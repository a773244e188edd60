import { checkExclusion } from "../checker/exclusion.ts";
import { checkFenceOrder } from "../checker/fences.ts";
import { figuresOf, type Figures } from "../checker/figures.ts";
import { resolveCheckOptions } from "../checker/options.ts";
import { checkSurfacing } from "../checker/surfacing.ts";
import { violation, type Violation } from "../checker/violation.ts";
import { checkWrites } from "../checker/writes.ts";
import type { History } from "../history/types.ts";
import type { AcquireRecord, MajorityDownEpisode } from "./types.ts";

/** How an acquisition may end while a majority is down: a typed failure, never a grant. */
export const FAIL_SAFE = Object.freeze(["QUORUM", "ACQUIRE_TIMEOUT"]);

export interface QuorumCheckResult {
  readonly figures: Figures;
  /** Acquisitions made wholly inside a majority-down episode, by outcome. */
  readonly duringMajorityDown: Record<string, number>;
  readonly violations: readonly Violation[];
}

/**
 * The campaign checker's rules that apply to a quorum lock (overlap only across a data loss and
 * then told; fences increase in grant order; the fenced register's replay; stale writes only of
 * told holders; typed errors only), plus the quorum's own: an acquisition made while a majority
 * was down never succeeds. (Not `data-loss-unsurfaced`: one database losing its data does not
 * end a hold that a majority still has.)
 */
export function checkQuorumHistory(
  history: History,
  acquires: readonly AcquireRecord[],
  episodes: readonly MajorityDownEpisode[],
): QuorumCheckResult {
  const options = resolveCheckOptions({ relaxAcrossDataLoss: true });
  const exclusion = checkExclusion(history, options);
  const violations = [
    ...exclusion.violations,
    ...checkFenceOrder(history),
    ...checkWrites(history, options, exclusion.excused),
    ...checkSurfacing(history),
  ];
  const duringMajorityDown: Record<string, number> = {};
  for (const a of acquires) {
    const episode = episodes.find((e) => a.startSeq > e.startSeq && a.endSeq < e.endSeq);
    if (!episode) continue;
    duringMajorityDown[a.outcome] = (duringMajorityDown[a.outcome] ?? 0) + 1;
    if (!FAIL_SAFE.includes(a.outcome))
      violations.push(
        violation(
          "granted-without-quorum",
          `an acquisition during a majority-down episode (dbs ${episode.down.join(",")} down) ended ${a.outcome}`,
        ),
      );
  }
  return { figures: figuresOf(history, exclusion.excused), duringMajorityDown, violations };
}
