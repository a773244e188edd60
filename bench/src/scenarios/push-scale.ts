import { edgelockLibrary } from "../libraries/edgelock.ts";
import type { Network } from "../net/network.ts";
import { runPass, summarize, type ContentionResult } from "../run/contention.ts";
import { REFUSED_PUSH } from "./push-refused.ts";

/** Issue 14's push goals beyond N = 12 on its irregular workload: N = 2 and N = 64. */
export const PUSH_SCALE_SIZES = [2, 64] as const;

/** Sections per worker of the N = 12 runs (two passes of 10: push-refused.ts). */
const PER_WORKER_AT_12 = 20;

/**
 * edgelock with push on the irregular workload of the refused-push scenario (exponential
 * sections of mean 8 ms, R = 25 ms) at N = 2 and N = 64: whether a small queue keeps its
 * efficiency and a large one its requests per section. At least 160 sections per point (K = 80
 * at N = 2, K = 20 at N = 64), in one pass each: only edgelock runs here.
 *
 * Each worker runs as many sections as at N = 12 (K = 20) or more: a client opens its stream once
 * and keeps it from one section to the next, so at K = 3 (before) the opening of 64 streams
 * weighed a third of a request on each of 192 sections, a cost of the sample, not of N = 64.
 */
export async function runPushScale(network: Network, quick: boolean): Promise<ContentionResult[]> {
  const latency = { ms: REFUSED_PUSH.rttMs, jitterMs: 0 };
  const lib = edgelockLibrary("push");
  const out: ContentionResult[] = [];
  for (const workers of PUSH_SCALE_SIZES) {
    const sections = quick
      ? Math.max(2, Math.ceil(64 / workers))
      : Math.max(PER_WORKER_AT_12, Math.ceil(160 / workers));
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
