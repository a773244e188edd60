import type { AdversaryHistory, Execution, Intent } from "./history.ts";
import type { AdversaryResult } from "./oracle/check.ts";
import { primitiveOf as primitiveOfIntent } from "./oracle/sections.ts";

/** What one run (or several, added up) exercised, per primitive: the figures the test gate prints. */
export interface PrimitiveFigures {
  /** Acquires told "ok" (re-entries are not new sections); for the latch, rounds set. */
  sections: number;
  intents: number;
  late: number;
  duplicate: number;
  lost: number;
  serverFault: number;
  settles: number;
  violations: number;
}

export type Figures = Record<string, PrimitiveFigures>;

/** Server faults by kind, summed over every primitive. */
export type ServerFaultFigures = Record<string, number>;

const OPENING = new Set(["tryAcquire", "acquire", "sem-acquire", "permit-acquire", "latch-set"]);

const primitiveOf = (intent: Intent | undefined): string =>
  intent === undefined ? "(none)" : primitiveOfIntent(intent);

const empty = (): PrimitiveFigures => ({
  sections: 0,
  intents: 0,
  late: 0,
  duplicate: 0,
  lost: 0,
  serverFault: 0,
  settles: 0,
  violations: 0,
});

/** Adds one run's figures into `into` (per primitive) and `faults` (per server fault kind). */
export function addFigures(
  into: Figures,
  faults: ServerFaultFigures,
  history: AdversaryHistory,
  result: AdversaryResult,
): void {
  const intents = new Map(history.intents.map((i) => [i.id, i]));
  const row = (intent: Intent | undefined) => (into[primitiveOf(intent)] ??= empty());
  for (const i of history.intents) {
    const r = row(i);
    r.intents += 1;
    if (OPENING.has(i.kind) && i.outcome === "ok") r.sections += 1;
  }
  const counted = new Set<string>();
  for (const e of history.executions) {
    // A multi-lock's run is logged once per lock: count the copy once.
    const copyKey = `${e.intent}:${e.opId}:${e.sentAt}:${e.script}`;
    if (counted.has(copyKey)) continue;
    counted.add(copyKey);
    const r = row(e.intent === null ? undefined : intents.get(e.intent));
    countCopy(r, e);
    if (e.serverFault !== undefined) faults[e.serverFault] = (faults[e.serverFault] ?? 0) + 1;
  }
  for (const v of result.violations)
    row(v.intent === undefined ? undefined : intents.get(v.intent)).violations += 1;
}

function countCopy(r: PrimitiveFigures, e: Execution): void {
  if (e.copy === "late") r.late += 1;
  if (e.copy === "duplicate") r.duplicate += 1;
  if (e.copy === "lost-response") r.lost += 1;
  if (e.serverFault !== undefined) r.serverFault += 1;
  if (e.script === "engine/settle") r.settles += 1;
}

/** The figures as a fixed-width table, one row per primitive and a total. */
export function formatFigures(figures: Figures, faults: ServerFaultFigures): string {
  const columns: (keyof PrimitiveFigures)[] = [
    "sections",
    "intents",
    "late",
    "duplicate",
    "lost",
    "serverFault",
    "settles",
    "violations",
  ];
  const total = empty();
  for (const f of Object.values(figures)) for (const c of columns) total[c] += f[c];
  const rows = [
    ...Object.entries(figures).sort(([a], [b]) => a.localeCompare(b)),
    ["total", total],
  ];
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(27) : c.padStart(11))).join("");
  const out = [line(["primitive", ...columns])];
  for (const [name, f] of rows as [string, PrimitiveFigures][])
    out.push(line([name, ...columns.map((c) => String(f[c]))]));
  const kinds = Object.entries(faults)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, n]) => `${k} ${n}`);
  out.push(`server faults by kind: ${kinds.length === 0 ? "none" : kinds.join(", ")}`);
  return out.join("\n");
}
