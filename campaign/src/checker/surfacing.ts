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

/**
 * Which client-side failures each request fault shows as. A hung request ends in the client's
 * timeout, or earlier when its caller cancels it: a keeper renewal is cancelled the moment its
 * hold ends, and a request inside a wait is cut at the wait's budget.
 */
const SEEN_AS: Readonly<Record<string, readonly HitKind[]>> = {
  "fail-before": ["5xx-before"],
  "fail-after": ["5xx-after"],
  "drop-before": ["dropped"],
  "drop-after": ["dropped"],
  hang: ["timeout", "cancelled"],
};

/** What a client sees when it stops waiting first: its timeout, or its caller's cancel. */
const GAVE_UP: readonly HitKind[] = ["timeout", "cancelled"];

/**
 * Every request a fault rule hit was seen by some client as a failure of the matching kind, so
 * the surfacing check above covered every injected fault. (Other causes add to what clients see:
 * latency beyond the timeout, Redis restarts; hence at least, not exactly.) Any injected failure
 * may also be seen as the client giving up first (its timeout on a loaded machine, or its caller
 * cancelling): a shortfall of one kind is covered by timeouts and cancels beyond those the hangs
 * account for, each counted once.
 */
function checkObserved(history: History): Violation[] {
  const injected = new Map<string, { kinds: readonly HitKind[]; count: number }>();
  for (const fault of history.faults) {
    const kinds = SEEN_AS[fault.kind];
    if (!kinds) continue;
    const key = kinds.join(" or ");
    const entry = injected.get(key) ?? { kinds, count: 0 };
    entry.count += fault.injected;
    injected.set(key, entry);
  }
  const seenAs = (kinds: readonly HitKind[]) =>
    history.hits.filter((h) => kinds.includes(h.kind)).length;
  const hung = injected.get(GAVE_UP.join(" or "))?.count ?? 0;
  let spare = Math.max(0, seenAs(GAVE_UP) - hung);
  const out: Violation[] = [];
  for (const [key, { kinds, count }] of injected) {
    const seen = seenAs(kinds);
    if (seen >= count) continue;
    const covered = kinds === SEEN_AS["hang"] ? 0 : Math.min(spare, count - seen);
    spare -= covered;
    if (seen + covered < count)
      out.push(
        violation(
          "fault-unobserved",
          `${count} request(s) hit by faults that clients see as ${key}, but clients saw ${seen}` +
            (covered > 0 ? ` (and ${covered} gave up first)` : ""),
        ),
      );
  }
  return out;
}
