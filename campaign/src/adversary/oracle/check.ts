import type { AdversaryHistory, Execution } from "../history.ts";
import { checkAcquires } from "./acquire-checks.ts";
import { checkAppliedAfterAnswer } from "./after-answer-checks.ts";
import { excuseClockSteps } from "./clock-step-excuses.ts";
import { evidenceLines } from "./evidence.ts";
import { GrantLedger } from "./grant-ledger.ts";
import { checkLeases } from "./lease-checks.ts";
import { lockTransitions } from "./lock-transitions.ts";
import { checkFinal, checkLeakedHolds, checkLostWithoutFault } from "./release-checks.ts";
import { checkLatches } from "./latch-checks.ts";
import { checkIllFormedRefused, checkOneKeyOneName } from "./name-checks.ts";
import { checkPermitReleases, permitRuns } from "./permit-checks.ts";
import { checkQueueOrder } from "./queue-checks.ts";
import { readWriteTransitions } from "./rw-transitions.ts";
import { checkRollbackDetected } from "./rollback-checks.ts";
import { sectionCounts } from "./sections.ts";
import { onRealClock } from "./server-clock.ts";
import { checkCapacity, checkSemaphoreReleases, semaphoreRuns } from "./semaphore-checks.ts";
import type { AdversaryViolation, AdversaryViolationClass } from "./violation.ts";

export interface AdversaryResult {
  readonly violations: AdversaryViolation[];
  readonly counts: Partial<Record<AdversaryViolationClass, number>>;
  /** Critical sections per primitive (latch: rounds) and in all (`sectionCounts`). */
  readonly sections: ReturnType<typeof sectionCounts>;
  /**
   * What a forward step of the server clock explains (`clock-step-excuses.ts`), kept apart from
   * `violations` so a report can show what was excused and why. Absent: nothing.
   */
  readonly excusedByClockSteps?: AdversaryViolation[];
}

/** Replays a recorded history (pure: the same history always gives the same verdict). */
export function checkAdversaryHistory(logged: AdversaryHistory): AdversaryResult {
  const history = onRealClock(logged);
  const byResource = new Map<string, Execution[]>();
  for (const e of history.executions) {
    const list = byResource.get(e.resource) ?? [];
    list.push(e);
    byResource.set(e.resource, list);
  }
  const ledger = new GrantLedger();
  const violations: AdversaryViolation[] = [];
  const ownerOf = (intent: number) => history.intents[intent]?.owner;
  for (const runs of byResource.values()) {
    switch (runs[0]!.state.kind) {
      case "lock": // the Lock, the FairLock, a multi-lock's parts: one exclusive lock hash each
        for (const t of lockTransitions(runs, ownerOf))
          ledger.add(t.execution, t.granted, t.released);
        break;
      case "read-write-lock":
        readWriteTransitions(runs, ledger, ownerOf);
        break;
      case "permit-expirable-semaphore":
        violations.push(...permitRuns(runs, ledger));
        break;
      case "semaphore":
        violations.push(...semaphoreRuns(history, runs, ledger));
        break;
      case "count-down-latch": // see checkLatches
        break;
    }
  }
  violations.push(
    ...checkAcquires(history.intents, ledger, byResource, history),
    ...checkLeases(history, byResource),
    ...checkAppliedAfterAnswer(history.intents, ledger),
    ...checkLeakedHolds(history, byResource),
    ...checkSemaphoreReleases(history, ledger),
    ...checkPermitReleases(history, ledger),
    ...checkLatches(history, byResource),
    ...checkCapacity(history),
    ...checkQueueOrder(history, byResource),
    ...checkFinal(history, ledger),
    ...checkLostWithoutFault(history),
    ...checkOneKeyOneName(history),
    ...checkIllFormedRefused(history),
    ...checkRollbackDetected(history, ledger),
  );
  const { stand, excused } = excuseClockSteps(history, violations);
  const counts: Partial<Record<AdversaryViolationClass, number>> = {};
  for (const v of stand) counts[v.class] = (counts[v.class] ?? 0) + 1;
  return {
    violations: stand,
    counts,
    sections: sectionCounts(history),
    ...(excused.length > 0 ? { excusedByClockSteps: excused } : {}),
  };
}

/** Per-class counts, then the first few violations of each class. */
export function formatAdversaryReport(
  history: AdversaryHistory,
  result: AdversaryResult,
  perClass = 3,
): string {
  const sections = result.sections;
  const per = Object.entries(sections.byPrimitive)
    .map(([p, n]) => `${p} ${n}`)
    .join(", ");
  const lines = [
    `adversary ${history.config} seed ${history.seed}: ${history.intents.length} intents, ${history.executions.length} script runs, ${result.violations.length} violations`,
    `  sections: ${sections.total} (${per || "none"}; latch: rounds)`,
  ];
  const excused = result.excusedByClockSteps ?? [];
  if (excused.length > 0) {
    const byClass: Record<string, number> = {};
    for (const v of excused) byClass[v.class] = (byClass[v.class] ?? 0) + 1;
    lines.push(
      `  excused by a forward server clock step: ${Object.entries(byClass)
        .map(([c, n]) => `${c} ${n}`)
        .join(", ")}`,
    );
  }
  for (const [cls, count] of Object.entries(result.counts)) {
    lines.push(`  ${cls}: ${count}`);
    const shown = result.violations.filter((x) => x.class === cls).slice(0, perClass);
    for (const [i, v] of shown.entries()) {
      lines.push(
        `    - ${v.detail} [${v.resource.split(":").slice(-2).join(":")}${v.intent === undefined ? "" : ` intent ${v.intent}`}${v.seq === undefined ? "" : ` run #${v.seq}`}]`,
      );
      // The first of each class with the runs behind it (see evidence.ts).
      if (i === 0) lines.push(...evidenceLines(history, v));
    }
  }
  return lines.join("\n");
}
