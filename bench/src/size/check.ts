/**
 * `pnpm check:sizes` (a stage of `pnpm test`, after build): bundles every Worker of
 * `SIZE_ENTRIES` and fails when one is over its budget. A budget is raised only on purpose, in
 * the same change that says why; the goal beside it is issue 14's.
 */
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { SIZE_ENTRIES, type SizeEntry } from "./entries.ts";
import { measureEntry, type SizeMeasure } from "./measure.ts";

export interface BudgetVerdict {
  readonly entry: string;
  readonly gzipped: number;
  readonly budget: number;
  readonly goal: number;
  readonly over: boolean;
}

/** Each measure against its entry's budget. */
export function judge(
  measures: readonly SizeMeasure[],
  entries: readonly SizeEntry[],
): BudgetVerdict[] {
  return measures.map((m) => {
    const entry = entries.find((e) => e.name === m.entry);
    if (entry === undefined) throw new Error(`no size entry named ${m.entry}`);
    return {
      entry: m.entry,
      gzipped: m.gzipped,
      budget: entry.budget,
      goal: entry.goal,
      over: m.gzipped > entry.budget,
    };
  });
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(2)} KB`;

if (import.meta.url === `file://${process.argv[1]}`) {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
  const measures = [];
  for (const entry of SIZE_ENTRIES) measures.push(await measureEntry(entry, root));
  const verdicts = judge(measures, SIZE_ENTRIES);
  for (const v of verdicts)
    console.log(
      `${v.over ? "✘" : "✔"} ${v.entry.padEnd(48)} ${kb(v.gzipped).padStart(9)} min+gz, budget ${kb(v.budget)}, goal ${kb(v.goal)}`,
    );
  const over = verdicts.filter((v) => v.over);
  if (over.length > 0) {
    console.error(
      `check:sizes: ${over.map((v) => v.entry).join(", ")} over budget (bench/src/size/entries.ts)`,
    );
    process.exit(1);
  }
}
