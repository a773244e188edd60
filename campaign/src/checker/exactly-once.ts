import type { History } from "../history/types.ts";
import { describe } from "./by-resource.ts";
import { dataLossBetween } from "./excuses.ts";
import { violation, type Violation } from "./violation.ts";

/**
 * Nothing applied twice: a reentrant hold count read inside a section equals the holds taken and
 * not yet released; a semaphore never refuses a release as an over-release unless a data loss
 * reset it; once every client settled, the state matches the balance of grants and releases.
 */
export function checkExactlyOnce(history: History): Violation[] {
  const violations: Violation[] = [];
  const sections = new Map(history.sections.map((s) => [s.id, s]));
  for (const check of history.holdCounts) {
    const section = sections.get(check.section);
    if (!section || check.observed === check.expected) continue;
    const cutOff =
      section.end !== "released" || dataLossBetween(history, section.enterSeq, check.seq);
    if (!cutOff) {
      violations.push(
        violation(
          "hold-count",
          `${describe(section)}: hold count ${check.observed}, expected ${check.expected}`,
        ),
      );
    }
  }
  for (const refusal of history.refusals) {
    if (history.dataLosses.some((loss) => loss.startSeq < refusal.seq)) continue;
    const section = sections.get(refusal.section);
    violations.push(
      violation(
        "over-release",
        `${refusal.resource}: release of ${section ? describe(section) : `#${refusal.section}`} refused as an over-release with no data loss before it`,
      ),
    );
  }
  for (const final of history.finals) {
    if (final.observed !== final.expected) {
      violations.push(
        violation(
          "final-state",
          `${final.resource}: ${final.what} is ${final.observed} after the run, expected ${final.expected}`,
        ),
      );
    }
  }
  return violations;
}

/**
 * A data loss never passes silently: a leased hold granted before Redis lost its data and
 * released after it came back is not confirmed as released (the server no longer had it).
 */
export function checkDataLossSurfaced(history: History): Violation[] {
  const violations: Violation[] = [];
  for (const loss of history.dataLosses) {
    for (const s of history.sections) {
      if (s.primitive === "semaphore" || s.end !== "released") continue;
      if (s.enterSeq < loss.startSeq && (s.exitSeq ?? Infinity) > loss.endSeq) {
        violations.push(
          violation(
            "data-loss-unsurfaced",
            `${describe(s)} held across a data loss [${loss.startSeq}..${loss.endSeq}] and its release still succeeded`,
          ),
        );
      }
    }
  }
  return violations;
}
