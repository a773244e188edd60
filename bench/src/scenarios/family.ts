import type { FamilyLibrary } from "../libraries/edgelock-family.ts";
import type { LockLibrary } from "../libraries/index.ts";
import type { Network } from "../net/network.ts";
import { runPass, summarize, type ContentionResult } from "../run/contention.ts";
import type { Section } from "../run/history.ts";
import { C, R, sectionsFor } from "./suite.ts";

/** The family scenarios: every queued primitive beside the Lock, on one name. */
export const FAMILY_SIZES = [8, 16] as const;

export interface FamilyResult {
  readonly library: string;
  readonly workers: number;
  readonly permits: number;
  readonly sections: number;
  /**
   * throughput × (C + R) ÷ permits: 1.0 is every permit handed on one round trip after its
   * holder let go (for the Lock, the same figure as its contention efficiency with fixed C).
   */
  readonly efficiency: number;
  readonly requestsPerCs: number;
  readonly commandsPerCs: number;
  /** Most holders inside at once: never above `permits`. */
  readonly mostAtOnce: number;
  readonly failedAcquires: number;
}

/**
 * N = 8 and N = 16 workers (each its own client) on one name, C = 10 ms, R = 20 ms; the Lock runs
 * first as the yardstick, then each primitive of the family, one pass each.
 */
export async function runFamily(
  network: Network,
  libraries: readonly (LockLibrary | FamilyLibrary)[],
  o: { quick: boolean; log: (line: string) => void },
): Promise<FamilyResult[]> {
  const out: FamilyResult[] = [];
  // One discarded round first, as in the suite: the first runs of a process pay for JIT
  // compilation and fresh connection pools, and would otherwise fall on the Lock, which runs first.
  for (const lib of libraries) {
    const warm = { workers: 4, sections: 3, csMs: C, irregular: false, waitMs: 60_000 };
    await runPass(network, lib, warm, { ms: R, jitterMs: 0 });
  }
  for (const workers of FAMILY_SIZES) {
    for (const lib of libraries) {
      const workload = {
        workers,
        sections: sectionsFor(workers, o.quick),
        csMs: C,
        irregular: false,
        waitMs: 60_000,
      };
      const raw = await runPass(network, lib, workload, { ms: R, jitterMs: 0 });
      const r = familyResult(
        summarize([raw]),
        "permits" in lib ? lib.permits : 1,
        raw.record.sections,
      );
      out.push(r);
      o.log(
        `family N=${String(workers).padEnd(3)} ${r.library.padEnd(44)} eff ${r.efficiency.toFixed(2)} req/CS ${r.requestsPerCs.toFixed(2)} most at once ${r.mostAtOnce}/${r.permits}`,
      );
    }
  }
  return out;
}

function familyResult(
  r: ContentionResult,
  permits: number,
  sections: readonly Section[],
): FamilyResult {
  return {
    library: r.library,
    workers: r.workload.workers,
    permits,
    sections: r.metrics.sections,
    efficiency: (r.metrics.throughput * (C + R)) / 1000 / permits,
    requestsPerCs: r.requestsPerCs,
    commandsPerCs: r.commandsPerCs,
    mostAtOnce: mostAtOnce(sections),
    failedAcquires: r.metrics.failedAcquires,
  };
}

/** The most sections open at one moment (a sweep over enters and exits). */
function mostAtOnce(sections: readonly Section[]): number {
  const edges = sections.flatMap((s) => [
    { at: s.enter, d: 1 },
    { at: s.exit, d: -1 },
  ]);
  edges.sort((a, b) => a.at - b.at || a.d - b.d);
  let inside = 0;
  let most = 0;
  for (const e of edges) most = Math.max(most, (inside += e.d));
  return most;
}

/** The report's table: one row per primitive, N = 8 and N = 16 side by side. */
export function familyTable(results: readonly FamilyResult[]): string {
  const names = [...new Set(results.map((r) => r.library))];
  const cell = (name: string, n: number) => {
    const r = results.find((x) => x.library === name && x.workers === n);
    if (!r) return "—";
    const failed = r.failedAcquires > 0 ? `, ${r.failedAcquires} failed` : "";
    return `${r.efficiency.toFixed(2)} @ ${r.requestsPerCs.toFixed(2)} (≤ ${r.mostAtOnce}/${r.permits} inside${failed})`;
  };
  const head = `| primitive | ${FAMILY_SIZES.map((n) => `N = ${n}`).join(" | ")} |`;
  const rule = `| --- | ${FAMILY_SIZES.map(() => "---:").join(" | ")} |`;
  const rows = names.map(
    (name) => `| ${name} | ${FAMILY_SIZES.map((n) => cell(name, n)).join(" | ")} |`,
  );
  return [head, rule, ...rows].join("\n");
}
