import type { Stack } from "@edgelock/testkit";
import { RECORD_MARGIN_SLACK_MS } from "../../../../packages/core/src/client-options.ts";
import { REORDER, type AdversaryConfig } from "../configs.ts";
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
  /** Wall time from its first run's start to its last run's end (runs overlap other mutations'). */
  readonly seconds: number;
  /** Mean wall time of one run (its workload's seconds plus its way to quiescence and the check). */
  readonly runSeconds: number;
}

export interface MeasureOptions {
  readonly runs: number;
  /** Worlds at once on the shared stack. */
  readonly parallel: number;
  /** Seeds `seed`, `seed + 1`, … */
  readonly seed: number;
  /** The control: the same worlds on the unmutated core. */
  readonly control?: boolean;
  /** Where a failing run's history goes. */
  readonly dumpDir?: string;
  /** The clients' path to Redis. @default "rest" */
  readonly backend?: "rest" | "tcp";
}

/**
 * One unmeasured run of every primitive on a fresh stack, before the first measured one. A cold
 * rest-server and process answer their first requests slower than the worlds' 40 ms request
 * timeout for about a second: four worlds started at once on them saw every acquire end unknown,
 * so the first batch of whichever mutation was measured first had no hold to weaken.
 */
export async function warmUp(stack: Stack): Promise<void> {
  await runAdversary({ config: REORDER, seed: 0, seconds: 1, stack, prefix: "mut-warm-up" });
}

/**
 * The world of a mutation on the unmutated core. A record TTL below the core's floor (finding 6:
 * only the seam lets validation accept it) becomes the floor, the shortest the core accepts:
 * else every client of the control would refuse its options.
 */
export function controlConfig(config: AdversaryConfig): AdversaryConfig {
  const floor =
    config.retryWindowMs +
    config.requestTimeoutMs +
    2 * config.clockErrorMs +
    RECORD_MARGIN_SLACK_MS;
  if (config.operationRecordTtlMs === undefined || config.operationRecordTtlMs >= floor)
    return config;
  return { ...config, operationRecordTtlMs: floor };
}

/**
 * Runs `runs` bounded worlds of each mutation on one shared stack, `parallel` at a time, and
 * counts per mutation the runs whose history the generic oracle rejects. Every mutation lives in
 * its own runs only (a weakened script in its clients' backends, a seam in its runs' async
 * context: `applyMutation`), so all share one pool and the slow tail of one overlaps the next.
 */
export async function measureMutations(
  stack: Stack,
  mutations: readonly Mutation[],
  options: MeasureOptions,
): Promise<Detection[]> {
  const applied = new Map(
    mutations.map((m) => [m.name, options.control ? null : applyMutation(m)] as const),
  );
  const tallies = new Map(
    mutations.map((m) => [
      m.name,
      {
        caught: 0,
        kinds: {} as Record<string, number>,
        missed: [] as number[],
        first: 0,
        last: 0,
        busy: 0,
      },
    ]),
  );
  // Interleaved (each mutation's first seed, then each one's second, …), so a short pool run
  // spreads every mutation's runs over the whole time, not one mutation's runs at the end.
  const jobs = Array.from({ length: options.runs }, (_, i) =>
    mutations.map((mutation) => ({ mutation, seed: options.seed + i })),
  ).flat();
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const { mutation, seed } = jobs[next++]!;
      const tally = tallies.get(mutation.name)!;
      const started = Date.now();
      if (tally.first === 0) tally.first = started;
      const mutated = applied.get(mutation.name);
      const world = () =>
        runAdversary({
          config: options.control ? controlConfig(mutation.config) : mutation.config,
          seed,
          seconds: mutation.seconds,
          ...(options.backend ? { backend: options.backend } : {}),
          stack,
          prefix: `mut-${mutation.name}-${options.control ? "c" : "m"}-${seed}`,
          ...(mutated ? { mutation: mutated } : {}),
          ...(options.dumpDir ? { dumpDir: options.dumpDir } : {}),
        });
      const run = await (mutated ? mutated.within(world) : world());
      if (run.result.violations.length > 0) tally.caught++;
      else tally.missed.push(seed);
      for (const cls of Object.keys(run.result.counts))
        tally.kinds[cls] = (tally.kinds[cls] ?? 0) + 1;
      tally.last = Math.max(tally.last, Date.now());
      tally.busy += Date.now() - started;
    }
  };
  await Promise.all(Array.from({ length: options.parallel }, worker));
  return mutations.map((m) => {
    const t = tallies.get(m.name)!;
    return {
      mutation: m.name,
      runs: options.runs,
      caught: t.caught,
      kinds: t.kinds,
      missed: t.missed.sort((a, b) => a - b),
      seconds: (t.last - t.first) / 1000,
      runSeconds: t.busy / options.runs / 1000,
    };
  });
}

/**
 * The rows of several shards' measurements (each its own seeds of every mutation) as one: runs,
 * catches, kinds and missed seeds added up; wall time the longest shard's, time per run the mean.
 */
export function mergeDetections(shards: readonly (readonly Detection[])[]): Detection[] {
  const first = shards[0] ?? [];
  return first.map((row) => {
    const rows = shards.map((rows) => rows.find((r) => r.mutation === row.mutation)!);
    const runs = rows.reduce((n, r) => n + r.runs, 0);
    const kinds: Record<string, number> = {};
    for (const r of rows)
      for (const [k, n] of Object.entries(r.kinds)) kinds[k] = (kinds[k] ?? 0) + n;
    return {
      mutation: row.mutation,
      runs,
      caught: rows.reduce((n, r) => n + r.caught, 0),
      kinds,
      missed: rows.flatMap((r) => r.missed).sort((a, b) => a - b),
      seconds: Math.max(...rows.map((r) => r.seconds)),
      runSeconds: rows.reduce((t, r) => t + r.runSeconds * r.runs, 0) / runs,
    };
  });
}

/** One mutation alone: `measureMutations` of one. */
export async function measureMutation(
  stack: Stack,
  mutation: Mutation,
  options: MeasureOptions,
): Promise<Detection> {
  return (await measureMutations(stack, [mutation], options))[0]!;
}

/** One line per mutation: runs caught, wall time (all runs; one run), violation kinds seen (runs each). */
export function formatDetections(rows: readonly Detection[]): string {
  const width = Math.max(...rows.map((r) => r.mutation.length));
  return rows
    .map((r) => {
      const kinds = Object.entries(r.kinds)
        .sort((a, b) => b[1] - a[1])
        .map(([k, n]) => `${k} ${n}`)
        .join(", ");
      return `${r.mutation.padEnd(width)}  ${String(r.caught).padStart(2)}/${r.runs}  ${r.seconds.toFixed(1).padStart(5)} s  ${r.runSeconds.toFixed(1).padStart(4)} s/run  ${kinds || "-"}`;
    })
    .join("\n");
}
