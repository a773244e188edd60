import { randomBytes } from "node:crypto";
import type { LockLibrary } from "../libraries/index.ts";
import type { Network } from "../net/network.ts";
import { envFor } from "../run/contention.ts";

export interface OpCost {
  /** Billed requests (HTTP requests, or wire commands for TCP). */
  readonly requests: number;
  readonly latencyMs: number;
}

export interface UncontendedResult {
  readonly library: string;
  readonly transport: "rest" | "tcp";
  readonly acquire: OpCost;
  readonly renew: OpCost | undefined;
  readonly release: OpCost;
}

/**
 * Acquire, renew and release on a free lock, warm (connections open and scripts loaded by a
 * first round on another name), each counted on its own.
 */
export async function runUncontended(
  network: Network,
  library: LockLibrary,
  rttMs: number,
): Promise<UncontendedResult> {
  await network.setLatency(rttMs, 0);
  const worker = await library.worker(envFor(network, { ms: rttMs, jitterMs: 0 }));
  const warm = await worker.acquire({
    waitMs: 1_000,
    name: `bench:warm:${randomBytes(4).toString("hex")}`,
  });
  await warm?.extend?.(10_000);
  await warm?.release();
  const measureOp = async <T>(op: () => Promise<T>): Promise<{ value: T; cost: OpCost }> => {
    const before = await network.counters();
    const start = performance.now();
    const value = await op();
    const latencyMs = performance.now() - start;
    const after = await network.counters();
    const requests =
      library.transport === "rest" ? after.http - before.http : after.wire - before.wire;
    return { value, cost: { requests, latencyMs } };
  };
  const acquired = await measureOp(() => worker.acquire({ waitMs: 1_000 }));
  const hold = acquired.value;
  if (hold === null) throw new Error(`${library.name}: uncontended acquire failed`);
  const renew = hold.extend ? (await measureOp(() => hold.extend!(10_000))).cost : undefined;
  const release = (await measureOp(() => hold.release())).cost;
  await worker.close();
  return {
    library: library.name,
    transport: library.transport,
    acquire: acquired.cost,
    renew,
    release,
  };
}
