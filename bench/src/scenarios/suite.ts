import type { LockLibrary } from "../libraries/index.ts";
import type { Network } from "../net/network.ts";
import {
  runPass,
  summarize,
  type ContentionResult,
  type Latency,
  type RawRun,
} from "../run/contention.ts";
import type { Workload } from "../run/workload.ts";
import { runOverrun, type OverrunResult } from "./overrun.ts";
import { runPushRefused, type PushRefusedResult } from "./push-refused.ts";
import { runPushScale } from "./push-scale.ts";
import { runUncontended, type UncontendedResult } from "./uncontended.ts";

export interface SuiteOptions {
  readonly quick: boolean;
  readonly log: (line: string) => void;
}

export interface SuiteResults {
  readonly uncontended: UncontendedResult[];
  /** Keyed by scenario label. */
  readonly contention: Record<string, ContentionResult[]>;
  /** N → results, at R = 20 ms. */
  readonly sweep: Map<number, ContentionResult[]>;
  readonly overrun: OverrunResult[];
  /** Push offered, refused (404) and absent, on issue 14's irregular N = 12 workload. */
  pushRefused: PushRefusedResult[];
  /** edgelock with push on that workload at N = 2 and N = 64. */
  pushScale: ContentionResult[];
}

export const R = 20;
export const C = 10;
const base = (quick: boolean): Workload => ({
  workers: 8,
  sections: quick ? 8 : 20,
  csMs: C,
  irregular: false,
  waitMs: 60_000,
});

/** The scenarios of the issue, in order; every library runs each before the next begins. */
export function scenarios(
  quick: boolean,
): { label: string; workload: Workload; latency: Latency }[] {
  const w = base(quick);
  const all = [
    { label: "N=8, R=20 ms", workload: w, latency: { ms: R, jitterMs: 0 } },
    {
      label: "N=8, R=20 ms, irregular",
      workload: { ...w, irregular: true },
      latency: { ms: R, jitterMs: 0 },
    },
    { label: "N=8, R=0", workload: w, latency: { ms: 0, jitterMs: 0 } },
    { label: "N=8, R=20 ms + 0–10 ms jitter", workload: w, latency: { ms: R, jitterMs: 10 } },
  ];
  return quick ? all.slice(0, 2) : all;
}

export function sweepSizes(quick: boolean): number[] {
  return quick ? [2, 8, 32] : [1, 2, 4, 8, 16, 32];
}

/** K shrinks as N grows so each point runs ~160 sections (K from 5 to 20). */
export function sectionsFor(n: number, quick: boolean): number {
  return Math.max(quick ? 2 : 5, Math.min(quick ? 8 : 20, Math.ceil((quick ? 64 : 160) / n)));
}

/**
 * Runs one setup for every library in `passes` interleaved passes (forward, then backward, …),
 * K split between them, so that a burst of load from other work on the machine falls on every
 * library alike rather than on whichever ran at that moment.
 */
async function runInterleaved(
  network: Network,
  libraries: readonly LockLibrary[],
  workload: Workload,
  latency: Latency,
  passes: number,
): Promise<ContentionResult[]> {
  const raw = new Map<LockLibrary, RawRun[]>(libraries.map((l) => [l, []]));
  const sections = Math.max(1, Math.round(workload.sections / passes));
  for (let pass = 0; pass < passes; pass++) {
    const order = pass % 2 === 0 ? libraries : [...libraries].reverse();
    for (const lib of order)
      raw.get(lib)!.push(await runPass(network, lib, { ...workload, sections }, latency));
  }
  return libraries.map((lib) => summarize(raw.get(lib)!));
}

export async function runSuite(
  network: Network,
  libraries: readonly LockLibrary[],
  o: SuiteOptions,
): Promise<SuiteResults> {
  const results: SuiteResults = {
    uncontended: [],
    contention: {},
    sweep: new Map(),
    overrun: [],
    pushRefused: [],
    pushScale: [],
  };
  const passes = o.quick ? 1 : 2;
  for (const lib of libraries) {
    results.uncontended.push(await runUncontended(network, lib, R));
    o.log(`uncontended ${lib.name}`);
  }
  // One discarded round first: the first runs of a process pay for JIT compilation and fresh
  // connection pools, and would otherwise all fall on whichever library runs first.
  await runInterleaved(
    network,
    libraries,
    { ...base(o.quick), workers: 4, sections: 3 },
    { ms: R, jitterMs: 0 },
    1,
  );
  o.log("warm-up round done");
  for (const s of scenarios(o.quick)) {
    const row = await runInterleaved(network, libraries, s.workload, s.latency, passes);
    results.contention[s.label] = row;
    for (const r of row)
      o.log(
        `${s.label.padEnd(30)} ${r.library.padEnd(24)} eff ${r.metrics.efficiency.toFixed(2)} req/CS ${r.requestsPerCs.toFixed(2)} violations ${r.metrics.violations}`,
      );
  }
  if (libraries.some((l) => l.name.startsWith("edgelock"))) {
    results.pushRefused = await runPushRefused(network, o.quick, passes);
    for (const { result: r, refusedPerCs } of results.pushRefused)
      o.log(
        `push refused N=12 ${r.library.padEnd(28)} eff ${r.metrics.efficiency.toFixed(2)} req/CS ${r.requestsPerCs.toFixed(2)} refused/CS ${refusedPerCs.toFixed(3)} violations ${r.metrics.violations}`,
      );
    results.pushScale = await runPushScale(network, o.quick);
    for (const r of results.pushScale)
      o.log(
        `push N=${r.workload.workers} irregular ${r.library.padEnd(20)} eff ${r.metrics.efficiency.toFixed(2)} req/CS ${r.requestsPerCs.toFixed(2)} violations ${r.metrics.violations}`,
      );
  }
  for (const n of sweepSizes(o.quick)) {
    const reuse = results.contention["N=8, R=20 ms"];
    const row =
      n === 8 && reuse && sectionsFor(8, o.quick) === base(o.quick).sections
        ? reuse
        : await runInterleaved(
            network,
            libraries,
            { ...base(o.quick), workers: n, sections: sectionsFor(n, o.quick) },
            { ms: R, jitterMs: 0 },
            1,
          );
    results.sweep.set(n, row);
    for (const r of row)
      o.log(
        `sweep N=${String(n).padEnd(3)} ${r.library.padEnd(24)} eff ${r.metrics.efficiency.toFixed(2)} req/CS ${r.requestsPerCs.toFixed(2)}`,
      );
  }
  if (!o.quick) {
    for (const lib of libraries) {
      results.overrun.push(await runOverrun(network, lib, R));
      o.log(`overrun ${lib.name}`);
    }
  }
  return results;
}
