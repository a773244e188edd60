import type { History } from "../history/types.ts";
import { checkCapacity } from "./capacity.ts";
import { checkDataLossSurfaced, checkExactlyOnce } from "./exactly-once.ts";
import { checkExclusion } from "./exclusion.ts";
import { checkFenceOrder } from "./fences.ts";
import { figuresOf, type Figures } from "./figures.ts";
import { checkLatches } from "./latch.ts";
import { checkLeaseHonesty } from "./lease-honesty.ts";
import { resolveCheckOptions, type CheckOptions } from "./options.ts";
import { checkSurfacing } from "./surfacing.ts";
import type { Violation } from "./violation.ts";
import { checkReads, checkWrites } from "./writes.ts";

export interface CheckResult {
  readonly figures: Figures;
  readonly violations: readonly Violation[];
}

/** Checks a recorded history against every guarantee; pure, so hand-made histories test it. */
export function checkHistory(history: History, options?: CheckOptions): CheckResult {
  const o = resolveCheckOptions(options);
  const exclusion = checkExclusion(history, o);
  const excused = exclusion.excused;
  const violations = [
    ...exclusion.violations,
    ...checkCapacity(history, o, excused),
    ...checkFenceOrder(history),
    ...checkLeaseHonesty(history),
    ...checkWrites(history, o, excused),
    ...checkReads(history, o, excused),
    ...checkExactlyOnce(history),
    ...checkDataLossSurfaced(history),
    ...checkLatches(history),
    ...checkSurfacing(history),
  ];
  return { figures: figuresOf(history, excused), violations };
}
