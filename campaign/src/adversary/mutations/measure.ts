import type { Stack } from "@edgelock/testkit";
import { runAdversary } from "../run.ts";
import { applyMutation } from "./apply.ts";
import type { Mutation } from "./mutation.ts";

/** How often the generic checker reported one mutation, over bounded runs. */
export interface Detection {
  readonly mutation: string;
  readonly runs: number;
  readonly caught: number;
  /** Violation classes seen, with the number of runs each appeared in. */
  readonly kinds: Record<string, number>;
  /** Seeds of the runs the checker passed (re-run one with the mutation to see why). */
  readonly missed: number[];
  readonly seconds: number;
}

/**
 * Runs `mutation` in `runs` bounded worlds on one shared stack, `parallel` at a time (seeds
 * `seed`, `seed + 1`, …), and counts the runs whose history the generic oracle rejects.
 * `mutation: null` is the control: the same worlds on the unmutated core.
 */
export async function measureMutation(
  stack: Stack,
  mutation: Mutation,
  options: { runs: number; parallel: number; seed: number; control?: boolean; dumpDir?: string },
): Promise<Detection> {
  const started = Date.now();
  const applied = options.control ? null : applyMutation(mutation);
  const kinds: Record<string, number> = {};
  const missed: number[] = [];
  let caught = 0;
  try {
    let next = 0;
    const worker = async () => {
      while (next < options.runs) {
        const seed = options.seed + next++;
        const run = await runAdversary({
          config: mutation.config,
          seed,
          seconds: mutation.seconds,
          stack,
          prefix: `mut-${mutation.name}-${options.control ? "c" : "m"}-${seed}`,
          ...(applied ? { mutation: applied } : {}),
          ...(options.dumpDir ? { dumpDir: options.dumpDir } : {}),
        });
        if (run.result.violations.length > 0) caught++;
        else missed.push(seed);
        for (const cls of Object.keys(run.result.counts)) kinds[cls] = (kinds[cls] ?? 0) + 1;
      }
    };
    await Promise.all(Array.from({ length: options.parallel }, worker));
  } finally {
    applied?.restore();
  }
  return {
    mutation: mutation.name,
    runs: options.runs,
    caught,
    kinds,
    missed,
    seconds: (Date.now() - started) / 1000,
  };
}

/** One line per mutation: runs caught, violation kinds seen (runs each), wall time. */
export function formatDetections(rows: readonly Detection[]): string {
  const width = Math.max(...rows.map((r) => r.mutation.length));
  return rows
    .map((r) => {
      const kinds = Object.entries(r.kinds)
        .sort((a, b) => b[1] - a[1])
        .map(([k, n]) => `${k} ${n}`)
        .join(", ");
      return `${r.mutation.padEnd(width)}  ${String(r.caught).padStart(2)}/${r.runs}  ${r.seconds.toFixed(1).padStart(5)} s  ${kinds || "-"}`;
    })
    .join("\n");
}
