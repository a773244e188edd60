import { startPushRefusingProxy, type PushRefusingProxy } from "@edgelock/testkit";
import { edgelockLibrary } from "../libraries/edgelock.ts";
import type { LockLibrary } from "../libraries/index.ts";
import type { Network } from "../net/network.ts";
import { runPass, summarize, type ContentionResult, type RawRun } from "../run/contention.ts";
import type { Workload } from "../run/workload.ts";

/** The irregular workload of issue 14: N = 12, exponential sections of mean 8 ms, R = 25 ms. */
export const REFUSED_PUSH = { workers: 12, csMs: 8, rttMs: 25 } as const;

export interface PushRefusedResult {
  readonly result: ContentionResult;
  /** Stream requests the backend refused, per critical section (counted in `requestsPerCs`). */
  readonly refusedPerCs: number;
}

/**
 * edgelock with push, with a backend that refuses `/subscribe` (404 after one round trip, on
 * real HTTP through a proxy), and with a backend that offers no push at all, on the same
 * irregular workload; passes interleaved like the other scenarios. A refused stream request is
 * a billed request: it is added to the rest-server's count.
 */
export async function runPushRefused(
  network: Network,
  quick: boolean,
  passes: number,
): Promise<PushRefusedResult[]> {
  const latency = { ms: REFUSED_PUSH.rttMs, jitterMs: 0 };
  const proxy: PushRefusingProxy = await startPushRefusingProxy(network.rest.url, 404, {
    refusalDelayMs: () => latency.ms,
  });
  try {
    const libraries: LockLibrary[] = [
      edgelockLibrary("push"),
      edgelockLibrary("refused", () => proxy.url),
      edgelockLibrary("polling"),
    ];
    const workload: Workload = {
      workers: REFUSED_PUSH.workers,
      sections: Math.max(1, Math.round((quick ? 8 : 20) / passes)),
      csMs: REFUSED_PUSH.csMs,
      irregular: true,
      waitMs: 60_000,
    };
    const raw = new Map<LockLibrary, RawRun[]>(libraries.map((l) => [l, []]));
    const refused = new Map<LockLibrary, number>(libraries.map((l) => [l, 0]));
    for (let pass = 0; pass < passes; pass++) {
      for (const lib of pass % 2 === 0 ? libraries : [...libraries].reverse()) {
        const before = proxy.refused;
        const run = await runPass(network, lib, workload, latency);
        const count = proxy.refused - before;
        refused.set(lib, refused.get(lib)! + count);
        raw.get(lib)!.push({ ...run, requests: run.requests + count });
      }
    }
    return libraries.map((lib) => {
      const result = summarize(raw.get(lib)!);
      const sections = Math.max(1, result.metrics.sections);
      return { result, refusedPerCs: refused.get(lib)! / sections };
    });
  } finally {
    await proxy.close();
  }
}
