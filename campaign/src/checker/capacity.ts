import type { History } from "../history/types.ts";
import { describe, overlapping, sectionsByResource } from "./by-resource.ts";
import { deadOnArrival, staleExcuse, type Excuse } from "./excuses.ts";
import type { ResolvedCheckOptions } from "./options.ts";
import { violation, type Violation } from "./violation.ts";

/**
 * Semaphores never grant above their permits: when a hold enters, the holds still open on the
 * resource (less those cut off for an accepted reason) plus itself fit in its capacity.
 */
export function checkCapacity(
  history: History,
  options: ResolvedCheckOptions,
  excused: Record<Excuse, number>,
): Violation[] {
  const violations: Violation[] = [];
  for (const [resource, sections] of sectionsByResource(history)) {
    const counted = sections.filter((s) => s.mode === "counted");
    counted.forEach((b, i) => {
      if (deadOnArrival(b)) return;
      const open = counted.slice(0, i).filter((a) => overlapping(a, b) && !deadOnArrival(a));
      if (open.length + 1 <= b.capacity) return;
      // Over the permits: only holds cut off for an accepted reason may be left out of the count.
      const excuses = open.map((a) => staleExcuse(history, a, b.enterSeq, options));
      for (const excuse of excuses) if (excuse) excused[excuse]++;
      const holding = 1 + excuses.filter((excuse) => excuse === undefined).length;
      if (holding > b.capacity) {
        violations.push(
          violation(
            "over-capacity",
            `${resource}: ${holding} holds open at once (permits ${b.capacity}) when ${describe(b)} entered`,
          ),
        );
      }
    });
  }
  return violations;
}
