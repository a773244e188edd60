import type { History, SectionRecord } from "../history/types.ts";
import { describe, sectionsByResource } from "./by-resource.ts";
import { deadOnArrival } from "./excuses.ts";
import { violation, type Violation } from "./violation.ts";

/**
 * Fencing tokens increase in grant order: a hold that entered after another had exited carries a
 * larger fence on every resource both hold (readers of one read session may share theirs). A
 * hold granted already expired is skipped: its grant may predate the other's. Semaphore permits
 * are granted side by side, so for them only an acquire that started after the other had exited
 * is known to be granted later.
 */
export function checkFenceOrder(history: History): Violation[] {
  const violations: Violation[] = [];
  for (const [resource, sections] of sectionsByResource(history)) {
    const fenced = sections.filter((s) => s.fences[resource] !== undefined && !deadOnArrival(s));
    const byExit = [...fenced].sort((a, b) => (a.exitSeq ?? Infinity) - (b.exitSeq ?? Infinity));
    const byStart = [...fenced].sort((a, b) => grantedAfter(a) - grantedAfter(b));
    // Sweep: the highest fence among holds exited so far, of any mode and of non-shared ones.
    let exited = 0;
    let top: SectionRecord | undefined;
    let topExclusive: SectionRecord | undefined;
    for (const b of byStart) {
      for (
        ;
        exited < byExit.length && (byExit[exited]!.exitSeq ?? Infinity) < grantedAfter(b);
        exited++
      ) {
        const a = byExit[exited]!;
        if (!top || fenceOf(a, resource) > fenceOf(top, resource)) top = a;
        if (
          a.mode !== "shared" &&
          (!topExclusive || fenceOf(a, resource) > fenceOf(topExclusive, resource))
        )
          topExclusive = a;
      }
      const a = b.mode === "shared" ? topExclusive : top;
      if (a && fenceOf(a, resource) >= fenceOf(b, resource)) {
        violations.push(
          violation(
            "fence-order",
            `${resource}: ${describe(b)} got fence ${fenceOf(b, resource)}, not above ${fenceOf(a, resource)} of earlier ${describe(a)}`,
          ),
        );
      }
    }
  }
  return violations;
}

/** The point after which the hold was surely granted (for side-by-side permits: its acquire's start). */
const grantedAfter = (s: SectionRecord): number =>
  s.mode === "counted" ? (s.acquireSeq ?? -Infinity) : s.enterSeq;

const fenceOf = (s: SectionRecord, resource: string): number => s.fences[resource]!;
