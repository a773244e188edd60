import type { LockLibrary } from "../libraries/index.ts";
import type { Network } from "../net/network.ts";
import { runContention, type ContentionResult, type Latency } from "../run/contention.ts";
import type { Workload } from "../run/workload.ts";
import { runOverrun, type OverrunResult } from "./overrun.ts";
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
}

export const R = 20;
export const C = 10;
const base = (quick: boolean): Workload => ({ workers: 8, sections: quick ? 8 : 20, csMs: C, irregular: false, waitMs: 60_000 });

/** The scenarios of the issue, in order; every library runs each before the next begins. */
export function scenarios(quick: boolean): { label: string; workload: Workload; latency: Latency }[] {
  const w = base(quick);
  const all = [
    { label: "N=8, R=20 ms", workload: w, latency: { ms: R, jitterMs: 0 } },
    { label: "N=8, R=20 ms, irregular", workload: { ...w, irregular: true }, latency: { ms: R, jitterMs: 0 } },
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

export async function runSuite(network: Network, libraries: readonly LockLibrary[], o: SuiteOptions): Promise<SuiteResults> {
  const results: SuiteResults = { uncontended: [], contention: {}, sweep: new Map(), overrun: [] };
  for (const lib of libraries) {
    results.uncontended.push(await runUncontended(network, lib, R));
    o.log(`uncontended ${lib.name}`);
  }
  for (const s of scenarios(o.quick)) {
    const row: ContentionResult[] = (results.contention[s.label] = []);
    for (const lib of libraries) {
      const r = await runContention(network, lib, s.workload, s.latency);
      row.push(r);
      o.log(`${s.label.padEnd(30)} ${lib.name.padEnd(24)} eff ${r.metrics.efficiency.toFixed(2)} req/CS ${r.requestsPerCs.toFixed(2)} violations ${r.metrics.violations}`);
    }
  }
  for (const n of sweepSizes(o.quick)) {
    const reuse = n === 8 ? results.contention["N=8, R=20 ms"] : undefined;
    if (reuse && sectionsFor(8, o.quick) === base(o.quick).sections) {
      results.sweep.set(n, reuse);
      continue;
    }
    const row: ContentionResult[] = [];
    for (const lib of libraries) {
      const r = await runContention(network, lib, { ...base(o.quick), workers: n, sections: sectionsFor(n, o.quick) }, { ms: R, jitterMs: 0 });
      row.push(r);
      o.log(`sweep N=${String(n).padEnd(3)} ${lib.name.padEnd(24)} eff ${r.metrics.efficiency.toFixed(2)} req/CS ${r.requestsPerCs.toFixed(2)}`);
    }
    results.sweep.set(n, row);
  }
  if (!o.quick) {
    for (const lib of libraries) {
      results.overrun.push(await runOverrun(network, lib, R));
      o.log(`overrun ${lib.name}`);
    }
  }
  return results;
}
