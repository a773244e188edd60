import type { History, SectionRecord } from "../history/types.ts";
import { describe, overlapping, sectionsByResource } from "./by-resource.ts";
import { dataLossBetween, deadOnArrival, staleExcuse, type Excuse } from "./excuses.ts";
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
    const slack = staleReleaseSlack(history, resource, counted);
    counted.forEach((b, i) => {
      if (deadOnArrival(b)) return;
      const open = counted.slice(0, i).filter((a) => overlapping(a, b) && !deadOnArrival(a));
      if (open.length + 1 <= b.capacity) return;
      // Over the permits: only holds cut off for an accepted reason may be left out of the count.
      const excuses = open.map((a) => staleExcuse(history, a, b.enterSeq, options));
      for (const excuse of excuses) if (excuse) excused[excuse]++;
      const holding = 1 + excuses.filter((excuse) => excuse === undefined).length;
      if (holding <= b.capacity) return;
      if (holding <= b.capacity + slack(b.enterSeq)) {
        excused["data-loss"]++;
        return;
      }
      violations.push(
        violation(
          "over-capacity",
          `${resource}: ${holding} holds open at once (permits ${b.capacity}) when ${describe(b)} entered`,
        ),
      );
    });
  }
  return violations;
}

/**
 * Permits a data loss let the resource count twice, by the time of `seq`. A semaphore permit taken
 * before a data loss and released after it gives back into the new epoch a permit that epoch
 * never granted: applied (not refused as an over-release, which it is when the new epoch is
 * full), it leaves one permit more free than the capacity until a later release is refused as an
 * over-release for it. Unleased permits admit nothing that could prevent it (docs/guarantees.md);
 * holds beyond the capacity by at most that many are excused as a data loss's.
 */
function staleReleaseSlack(
  history: History,
  resource: string,
  counted: readonly SectionRecord[],
): (seq: number) => number {
  const changes: { seq: number; by: number }[] = [];
  for (const s of counted) {
    if (s.primitive !== "semaphore" || s.end !== "released" || s.exitSeq === undefined) continue;
    if (dataLossBetween(history, s.enterSeq, s.exitSeq)) changes.push({ seq: s.exitSeq, by: 1 });
  }
  for (const refusal of history.refusals)
    if (refusal.resource === resource) changes.push({ seq: refusal.seq, by: -1 });
  changes.sort((a, b) => a.seq - b.seq);
  return (seq) => {
    let slack = 0;
    for (const change of changes) {
      if (change.seq >= seq) break;
      slack = Math.max(0, slack + change.by);
    }
    return slack;
  };
}
