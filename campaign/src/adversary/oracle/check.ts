import type { AdversaryHistory, Execution } from "../history.ts";
import { checkAcquires } from "./acquire-checks.ts";
import { GrantLedger } from "./grant-ledger.ts";
import { checkLeases } from "./lease-checks.ts";
import { lockTransitions } from "./lock-transitions.ts";
import { checkFinal, checkLeakedHolds, checkLostWithoutFault } from "./release-checks.ts";
import { checkCapacity, checkSemaphoreReleases, semaphoreRuns } from "./semaphore-checks.ts";
import type { AdversaryViolation, AdversaryViolationClass } from "./violation.ts";

export interface AdversaryResult {
  readonly violations: AdversaryViolation[];
  readonly counts: Partial<Record<AdversaryViolationClass, number>>;
}

/** Replays a recorded history (pure: the same history always gives the same verdict). */
export function checkAdversaryHistory(history: AdversaryHistory): AdversaryResult {
  const byResource = new Map<string, Execution[]>();
  for (const e of history.executions) {
    const list = byResource.get(e.resource) ?? [];
    list.push(e);
    byResource.set(e.resource, list);
  }
  const ledger = new GrantLedger();
  const violations: AdversaryViolation[] = [];
  for (const [resource, runs] of byResource) {
    if (runs[0]!.state.kind === "lock")
      for (const t of lockTransitions(runs)) ledger.add(t.execution, t.granted, t.released);
    else violations.push(...semaphoreRuns(history, runs, ledger));
    void resource;
  }
  violations.push(
    ...checkAcquires(history.intents, ledger, byResource, history),
    ...checkLeases(history, byResource),
    ...checkLeakedHolds(history, byResource),
    ...checkSemaphoreReleases(history, ledger),
    ...checkCapacity(history),
    ...checkFinal(history),
    ...checkLostWithoutFault(history),
  );
  const counts: Partial<Record<AdversaryViolationClass, number>> = {};
  for (const v of violations) counts[v.class] = (counts[v.class] ?? 0) + 1;
  return { violations, counts };
}

/** Per-class counts, then the first few violations of each class. */
export function formatAdversaryReport(
  history: AdversaryHistory,
  result: AdversaryResult,
  perClass = 3,
): string {
  const lines = [
    `adversary ${history.config} seed ${history.seed}: ${history.intents.length} intents, ${history.executions.length} script runs, ${result.violations.length} violations`,
  ];
  for (const [cls, count] of Object.entries(result.counts)) {
    lines.push(`  ${cls}: ${count}`);
    for (const v of result.violations.filter((x) => x.class === cls).slice(0, perClass))
      lines.push(
        `    - ${v.detail} [${v.resource.split(":").slice(-2).join(":")}${v.intent === undefined ? "" : ` intent ${v.intent}`}${v.seq === undefined ? "" : ` run #${v.seq}`}]`,
      );
  }
  return lines.join("\n");
}
