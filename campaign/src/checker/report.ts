import type { CheckResult } from "./check.ts";

const line = (record: Record<string, number>): string =>
  Object.entries(record)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, v]) => `${k} ${v}`)
    .join(", ") || "none";

/** What a fault kind's `injected` counts, where it is not requests. */
const HIT: Record<string, string> = { "late-push": "messages late or lost" };

/** The campaign's summary: critical sections, faults by kind, violations (and the first few). */
export function formatReport(result: CheckResult, seed: number, limit = 20): string {
  const f = result.figures;
  const faults = Object.entries(f.faults)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(
      ([kind, { episodes, injected }]) =>
        `${kind} ${episodes}${injected > 0 ? ` (${injected} ${HIT[kind] ?? "requests hit"})` : ""}`,
    )
    .join(", ");
  const lines = [
    `seed ${seed} (replay the choices with EDGELOCK_CAMPAIGN_SEED=${seed})`,
    `critical sections: ${f.sections} (${line(f.sectionsByPrimitive)})`,
    `  ended: ${line(f.sectionEnds)}`,
    `  fenced writes: ${f.writes.accepted} accepted, ${f.writes.rejected} rejected`,
    `  reentrant hold-count checks: ${f.holdCountChecks}; lease probes: ${f.leaseProbes.judged} judged of ${f.leaseProbes.taken}; latch rounds: ${f.latchRounds} (${f.countDowns} countDown calls)`,
    `faults by kind: ${faults || "none"}`,
    `  data losses detected: ${f.dataLosses}`,
    `  transport failures seen by clients: ${line(f.hits)}`,
    `  on: ${line(f.hitCommands)}`,
    `  surfaced by: ${line(f.surfacedBy)}`,
    `  overlaps excused: ${line(f.excused)}`,
    `  client events: ${line(f.events)}`,
    `  push messages: ${f.push.messages} delivered (${f.push.delayed} late), ${f.push.lost} lost with their stream, ${f.push.cutOff} followed by a cut-off`,
    `violations: ${result.violations.length}`,
    ...result.violations.slice(0, limit).map((v) => `  [${v.rule}] ${v.message}`),
  ];
  if (result.violations.length > limit)
    lines.push(`  … and ${result.violations.length - limit} more`);
  return lines.join("\n");
}
