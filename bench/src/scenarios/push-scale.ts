import { edgelockLibrary } from "../libraries/edgelock.ts";
import type { Network } from "../net/network.ts";
import { runPass, summarize, type ContentionResult } from "../run/contention.ts";
import { REFUSED_PUSH } from "./push-refused.ts";

/** Issue 14's push goals beyond N = 12 on its irregular workload: N = 2 and N = 64. */
export const PUSH_SCALE_SIZES = [2, 64] as const;

/**
 * edgelock with push on the irregular workload of the refused-push scenario (exponential
 * sections of mean 8 ms, R = 25 ms) at N = 2 and N = 64: whether a small queue keeps its
 * efficiency and a large one its requests per section. About 160 sections per point (K = 80 at
 * N = 2, K = 3 at N = 64), in one pass each: only edgelock runs here.
 */
export async function runPushScale(network: Network, quick: boolean): Promise<ContentionResult[]> {
  const latency = { ms: REFUSED_PUSH.rttMs, jitterMs: 0 };
  const lib = edgelockLibrary("push");
  const out: ContentionResult[] = [];
  for (const workers of PUSH_SCALE_SIZES) {
    const sections = Math.max(2, Math.ceil((quick ? 64 : 160) / workers));
    const workload = {
      workers,
      sections,
      csMs: REFUSED_PUSH.csMs,
      irregular: true,
      waitMs: 60_000,
    };
    out.push(summarize([await runPass(network, lib, workload, latency)]));
  }
  return out;
}
