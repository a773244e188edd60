import { checkHistory, type Section } from "./history.ts";
import type { RunRecord } from "./workload.ts";

export interface RunMetrics {
  readonly sections: number;
  readonly failedAcquires: number;
  readonly violations: number;
  readonly overlapMs: number;
  /** Critical sections per second over the busy span. */
  readonly throughput: number;
  /** throughput × (C + R): 1.0 is a hand-off one round trip after the holder let go. */
  readonly efficiency: number;
  readonly waitP50: number;
  readonly waitP99: number;
  readonly waitMax: number;
  /** Median time from one exit to the next entry, ms. */
  readonly gapP50: number;
  /** Largest share of grants any worker got ÷ smallest, while all were still competing (worst pass). */
  readonly shareSpread: number;
  /** How often the worker that just released took the lock again while others waited. */
  readonly retakeRate: number;
}

/**
 * Turns one or more runs of the same setup (passes interleaved with other libraries, so that load
 * bursts on a shared machine fall on every library alike) into the report's figures. Rates are
 * per run, weighted by sections; waits and gaps are pooled. `rttMs` is the run's R (mean, with
 * jitter).
 */
export function measure(runs: readonly RunRecord[], rttMs: number, workers: number): RunMetrics {
  const per = runs.map((run) => measureOne(run, rttMs, workers));
  const sections = per.reduce((n, m) => n + m.sections, 0);
  const weighted = (pick: (m: OneRun) => number) =>
    sections === 0 ? 0 : per.reduce((sum, m) => sum + pick(m) * m.sections, 0) / sections;
  const waits = per.flatMap((m) => m.waits).sort((a, b) => a - b);
  const gaps = per.flatMap((m) => m.gaps).sort((a, b) => a - b);
  return {
    sections,
    failedAcquires: runs.reduce((n, r) => n + r.failedAcquires, 0),
    violations: per.reduce((n, m) => n + m.violations, 0),
    overlapMs: per.reduce((n, m) => n + m.overlapMs, 0),
    throughput: weighted((m) => m.throughput),
    efficiency: weighted((m) => m.efficiency),
    waitP50: quantile(waits, 0.5),
    waitP99: quantile(waits, 0.99),
    waitMax: waits.at(-1) ?? 0,
    gapP50: quantile(gaps, 0.5),
    shareSpread: Math.max(...per.map((m) => m.shareSpread)),
    retakeRate: weighted((m) => m.retakeRate),
  };
}

interface OneRun {
  readonly sections: number;
  readonly violations: number;
  readonly overlapMs: number;
  readonly throughput: number;
  readonly efficiency: number;
  readonly waits: number[];
  readonly gaps: number[];
  readonly shareSpread: number;
  readonly retakeRate: number;
}

function measureOne(run: RunRecord, rttMs: number, workers: number): OneRun {
  const s = [...run.sections].sort((a, b) => a.enter - b.enter);
  const { violations, overlapMs } = checkHistory(s);
  const first = s[0];
  const last = s.at(-1);
  const span = first && last ? last.exit - first.enter : 0;
  const work = s.reduce((sum, x) => sum + (x.exit - x.enter), 0);
  return {
    sections: s.length,
    violations,
    overlapMs,
    throughput: span > 0 ? (s.length * 1000) / (span + rttMs) : 0,
    efficiency: span > 0 ? (work + s.length * rttMs) / (span + rttMs) : 0,
    waits: s.map((x) => x.enter - x.requestedAt),
    gaps: s.slice(1).map((x, i) => x.enter - s[i]!.exit),
    shareSpread: shareSpread(s, workers),
    retakeRate: retakeRate(s),
  };
}

export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

/** Grants per worker until the first worker finished (after that, fewer compete). */
function shareSpread(s: readonly Section[], workers: number): number {
  if (workers < 2) return 1;
  const finished = new Map<number, number>();
  for (const x of s) finished.set(x.worker, x.exit);
  const cutoff = Math.min(...finished.values());
  const counts = new Array<number>(workers).fill(0);
  for (const x of s) if (x.enter <= cutoff) counts[x.worker]!++;
  const min = Math.min(...counts);
  return min === 0 ? Infinity : Math.max(...counts) / min;
}

/** Hand-offs where the releaser entered again although another worker had been waiting. */
function retakeRate(s: readonly Section[]): number {
  let contested = 0;
  let retaken = 0;
  for (let i = 1; i < s.length; i++) {
    const prev = s[i - 1]!;
    const next = s[i]!;
    const someoneWaited = s.some(
      (x) => x.worker !== prev.worker && x.requestedAt < prev.exit && x.enter >= prev.exit,
    );
    if (!someoneWaited) continue;
    contested++;
    if (next.worker === prev.worker) retaken++;
  }
  return contested === 0 ? 0 : retaken / contested;
}
