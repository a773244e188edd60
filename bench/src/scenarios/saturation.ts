import { randomBytes } from "node:crypto";
import { edgelockTcpLibrary } from "../libraries/edgelock-tcp.ts";
import { redisSemaphoreLibrary } from "../libraries/redis-semaphore.ts";
import { redlockLibrary } from "../libraries/redlock.ts";
import type { LockLibrary } from "../libraries/index.ts";
import type { Network } from "../net/network.ts";
import { processCpuSeconds, redisCostMeter } from "../net/redis-cost.ts";

/**
 * Saturation: many clients on many names, straight to Redis over TCP (R = 0, no proxy), each
 * looping uncontended acquire + release pairs for a fixed time. What bounds a self-hosted Redis:
 * its CPU per pair. The pairs per second are Redis's ceiling only when redis-server was busy
 * ≥ 90 % of a core meanwhile (sampled from /proc/<pid>/stat); otherwise the clients (one Node
 * process on a shared 2-core machine) were the limit, and the figure says so.
 */
export const SATURATION = { clients: 32, namesPerClient: 8, seconds: 8 } as const;
export const SATURATION_LIBRARIES: readonly LockLibrary[] = [
  edgelockTcpLibrary,
  redisSemaphoreLibrary,
  redlockLibrary,
];

export interface SaturationResult {
  readonly library: string;
  readonly pairs: number;
  readonly pairsPerS: number;
  /** redis-server CPU over the run, as a share of one core. */
  readonly redisCore: number;
  readonly saturated: boolean;
  readonly commandsPerPair: number;
  readonly scriptUsecPerPair: number;
  readonly cpuUsecPerPair: number;
  readonly failed: number;
}

export async function runSaturation(
  network: Network,
  libraries: readonly LockLibrary[] = SATURATION_LIBRARIES,
  quick = false,
): Promise<SaturationResult[]> {
  await network.setLatency(0, 0);
  const seconds = quick ? 3 : SATURATION.seconds;
  const out: SaturationResult[] = [];
  for (const library of libraries) {
    const tag = randomBytes(4).toString("hex");
    const env = {
      rest: network.rest,
      proxyUrl: network.redis.url, // straight to Redis: the proxy would be the bottleneck
      name: `sat:${tag}`,
      oneWayMs: () => 0,
    };
    const workers = await Promise.all(
      Array.from({ length: SATURATION.clients }, () => library.worker(env)),
    );
    const nameOf = (c: number, i: number) => `sat:${tag}:${c}:${i % SATURATION.namesPerClient}`;
    // Every name is its client's own, so nothing waits; a wait budget is given all the same,
    // since redis-semaphore's tryAcquire with acquireTimeout 0 gives up before its first try.
    const waitMs = 1_000;
    // warm: connections open, scripts loaded
    await Promise.all(
      workers.map(async (w, c) => (await w.acquire({ waitMs, name: nameOf(c, 0) }))?.release()),
    );
    const meter = await redisCostMeter(network.redis.url);
    const pid = await meter.pid();
    await meter.start();
    const cpuStart = processCpuSeconds(pid);
    const started = performance.now();
    const end = started + seconds * 1000;
    let pairs = 0;
    let failed = 0;
    await Promise.all(
      workers.map(async (w, c) => {
        for (let i = 0; performance.now() < end; i++) {
          const hold = await w
            .acquire({ waitMs, leaseMs: 10_000, name: nameOf(c, i) })
            .catch(() => null);
          if (!hold) {
            failed++;
            continue;
          }
          await hold.release();
          pairs++;
        }
      }),
    );
    const elapsedS = (performance.now() - started) / 1000;
    const redisCore = (processCpuSeconds(pid) - cpuStart) / elapsedS;
    const cost = await meter.stop();
    await meter.close();
    await Promise.all(workers.map((w) => w.close()));
    const per = (v: number) => v / Math.max(1, pairs);
    out.push({
      library: library.name,
      pairs,
      pairsPerS: pairs / elapsedS,
      redisCore,
      saturated: redisCore >= 0.9,
      commandsPerPair: per(cost.calls),
      scriptUsecPerPair: per(cost.scriptUsec),
      cpuUsecPerPair: per(cost.cpuUsec),
      failed,
    });
  }
  return out;
}
