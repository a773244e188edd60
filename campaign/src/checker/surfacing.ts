import type { HitKind, History } from "../history/types.ts";
import { violation, type Violation } from "./violation.ts";

/**
 * Every fault that hit a request was made known: a `retried` or `outcome-unknown` event, a typed
 * error thrown to the caller, or an aborted signal, never a silent success. Requests the caller
 * cancelled itself are exempt. Any error that is not one of the library's typed errors is a
 * violation in itself.
 */
export function checkSurfacing(history: History): Violation[] {
  const violations: Violation[] = [];
  for (const hit of history.hits) {
    if (hit.surfacedBy !== undefined || hit.kind === "cancelled") continue;
    violations.push(
      violation(
        "fault-unsurfaced",
        `${hit.worker}: ${hit.kind} on ${hit.command} (hit #${hit.id}, seq ${hit.seq}) was never surfaced`,
      ),
    );
  }
  violations.push(...checkObserved(history));
  for (const error of history.untyped) {
    violations.push(
      violation("untyped-error", `${error.worker}: ${error.operation} threw ${error.message}`),
    );
  }
  return violations;
}

/** Which client-side failure each request fault shows as (a hung request ends in the client's timeout). */
const SEEN_AS: Readonly<Record<string, HitKind>> = {
  "fail-before": "5xx-before",
  "fail-after": "5xx-after",
  "drop-before": "dropped",
  "drop-after": "dropped",
  hang: "timeout",
};

/**
 * Every request a fault rule hit was seen by some client as a failure of the matching kind, so
 * the surfacing check above covered every injected fault. (Other causes add to what clients see:
 * latency beyond the timeout, Redis restarts; hence at least, not exactly.)
 */
function checkObserved(history: History): Violation[] {
  const injected: Partial<Record<HitKind, number>> = {};
  for (const fault of history.faults) {
    const kind = SEEN_AS[fault.kind];
    if (kind) injected[kind] = (injected[kind] ?? 0) + fault.injected;
  }
  const out: Violation[] = [];
  for (const [kind, count] of Object.entries(injected)) {
    const seen = history.hits.filter((h) => h.kind === kind).length;
    if (seen < count)
      out.push(
        violation(
          "fault-unobserved",
          `${count} request(s) hit by faults that clients see as ${kind}, but clients saw ${seen}`,
        ),
      );
  }
  return out;
}
