import type { History } from "../history/types.ts";
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
    violations.push(violation("fault-unsurfaced", `${hit.worker}: ${hit.kind} on ${hit.command} (hit #${hit.id}, seq ${hit.seq}) was never surfaced`));
  }
  for (const error of history.untyped) {
    violations.push(violation("untyped-error", `${error.worker}: ${error.operation} threw ${error.message}`));
  }
  return violations;
}
