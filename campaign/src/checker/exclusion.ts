import type { History, SectionRecord } from "../history/types.ts";
import { describe, overlapping, sectionsByResource } from "./by-resource.ts";
import { deadOnArrival, staleExcuse, type Excuse } from "./excuses.ts";
import type { ResolvedCheckOptions } from "./options.ts";
import { violation, type Violation } from "./violation.ts";

export interface ExclusionResult {
  readonly violations: Violation[];
  readonly excused: Record<Excuse, number>;
}

const conflicts = (a: SectionRecord, b: SectionRecord): boolean =>
  a.mode !== "counted" &&
  b.mode !== "counted" &&
  (a.mode === "exclusive" || b.mode === "exclusive");

/**
 * Mutual exclusion: two conflicting holds of one resource are never open together, unless the one
 * entered first had been cut off (told of the loss) for a reason the options accept, or one of
 * them was granted already expired and told before it used the resource.
 */
export function checkExclusion(history: History, options: ResolvedCheckOptions): ExclusionResult {
  const violations: Violation[] = [];
  const excused: Record<Excuse, number> = {
    frozen: 0,
    "dead-on-arrival": 0,
    "data-loss": 0,
    "late-signal": 0,
  };
  for (const [resource, sections] of sectionsByResource(history)) {
    sections.forEach((a, i) => {
      for (const b of sections.slice(i + 1)) {
        if (!overlapping(a, b)) break;
        if (!conflicts(a, b)) continue;
        const arrivedDead = deadOnArrival(a) || deadOnArrival(b);
        const excuse = arrivedDead
          ? "dead-on-arrival"
          : staleExcuse(history, a, b.enterSeq, options);
        if (excuse) excused[excuse]++;
        else
          violations.push(
            violation(
              "overlap",
              `${resource}: ${describe(b)} entered while ${describe(a)} held it`,
            ),
          );
      }
    });
  }
  return { violations, excused };
}
