import { randomBytes } from "node:crypto";
import type { LibraryEnv, LockLibrary, LockWorker } from "../libraries/index.ts";
import type { Network } from "../net/network.ts";
import { NO_COST, redisCostMeter, type RedisCost } from "../net/redis-cost.ts";
import { measure, type RunMetrics } from "./metrics.ts";
import { runWorkload, type RunRecord, type Workload } from "./workload.ts";

export interface Latency {
  readonly ms: number;
  readonly jitterMs: number;
}

export interface ContentionResult {
  readonly library: string;
  readonly transport: "rest" | "tcp";
  readonly latency: Latency;
  readonly workload: Workload;
  readonly metrics: RunMetrics;
  /** HTTP requests (rest) or wire commands (tcp), the billed unit, for the whole run. */
  readonly requests: number;
  /** Redis commands run (for tcp the same as `requests`). */
  readonly commands: number;
  readonly requestsPerCs: number;
  readonly commandsPerCs: number;
  /** Commands Redis executed per section, those inside scripts included (INFO commandstats). */
  readonly redisCallsPerCs: number;
  /** µs Redis spent in scripts per section (INFO commandstats usec of EVAL/EVALSHA). */
  readonly scriptUsecPerCs: number;
  /** µs in other commands per section (those inside scripts included: see RedisCost). */
  readonly otherUsecPerCs: number;
  /** redis-server CPU µs per section (INFO cpu, user + system). */
  readonly cpuUsecPerCs: number;
  readonly failedReleases: number;
  readonly leasesLost: number;
}

export function envFor(
  network: Network,
  latency: Latency,
  name = `bench:${randomBytes(6).toString("hex")}`,
): LibraryEnv {
  return {
    rest: network.rest,
    proxyUrl: network.proxyUrl,
    name,
    oneWayMs: () => (latency.ms + Math.random() * latency.jitterMs) / 2,
  };
}

/** One pass of one library: the recorded history and what the counters saw. */
export interface RawRun {
  readonly library: LockLibrary;
  readonly latency: Latency;
  readonly workload: Workload;
  readonly record: RunRecord;
  readonly requests: number;
  readonly commands: number;
  /** What the pass cost Redis, from its own statistics. */
  readonly cost: RedisCost;
}

/**
 * One library, one workload, one latency: fresh workers (own clients) on a fresh lock name, warmed
 * up on names of their own (connections open, scripts loaded), then counted from a snapshot of
 * the network's counters to one taken after every background request settled.
 */
export async function runPass(
  network: Network,
  library: LockLibrary,
  workload: Workload,
  latency: Latency,
  /** Read Redis's own statistics around the run (its INFO commands then show in them). */
  measureCost = true,
): Promise<RawRun> {
  await network.setLatency(latency.ms, latency.jitterMs);
  const env = envFor(network, latency);
  const workers = await Promise.all(
    Array.from({ length: workload.workers }, () => library.worker(env)),
  );
  await warmUp(workers);
  const meter = measureCost ? await redisCostMeter(network.redis.url) : undefined;
  const before = await network.counters();
  await meter?.start();
  const record = await runWorkload(workers, workload);
  await Promise.all(workers.map((w) => w.close()));
  const after = await network.counters();
  const cost = (await meter?.stop()) ?? NO_COST;
  await meter?.close();
  const rest = library.transport === "rest";
  const requests = rest ? after.http - before.http : after.wire - before.wire;
  return {
    library,
    latency,
    workload,
    record,
    requests,
    commands: rest ? after.restCommands - before.restCommands : requests,
    cost,
  };
}

/** The figures of one library over its passes of one setup. */
export function summarize(passes: readonly RawRun[]): ContentionResult {
  const first = passes[0]!;
  const done = Math.max(
    1,
    passes.reduce((n, p) => n + p.record.sections.length, 0),
  );
  const requests = passes.reduce((n, p) => n + p.requests, 0);
  const commands = passes.reduce((n, p) => n + p.commands, 0);
  const cost = (pick: (c: RedisCost) => number) => passes.reduce((n, p) => n + pick(p.cost), 0);
  return {
    library: first.library.name,
    transport: first.library.transport,
    latency: first.latency,
    workload: { ...first.workload, sections: passes.reduce((n, p) => n + p.workload.sections, 0) },
    metrics: measure(
      passes.map((p) => p.record),
      first.latency.ms + first.latency.jitterMs / 2,
      first.workload.workers,
    ),
    requests,
    commands,
    requestsPerCs: requests / done,
    commandsPerCs: commands / done,
    redisCallsPerCs: cost((c) => c.calls) / done,
    scriptUsecPerCs: cost((c) => c.scriptUsec) / done,
    otherUsecPerCs: cost((c) => c.otherUsec) / done,
    cpuUsecPerCs: cost((c) => c.cpuUsec) / done,
    failedReleases: passes.reduce((n, p) => n + p.record.failedReleases, 0),
    leasesLost: passes.reduce((n, p) => n + p.record.leasesLost, 0),
  };
}

/** One pass, summarized (tests and probes). */
export async function runContention(
  network: Network,
  library: LockLibrary,
  workload: Workload,
  latency: Latency,
  measureCost = true,
): Promise<ContentionResult> {
  return summarize([await runPass(network, library, workload, latency, measureCost)]);
}

async function warmUp(workers: readonly LockWorker[]): Promise<void> {
  const tag = randomBytes(4).toString("hex");
  await Promise.all(
    workers.map(async (worker, i) => {
      const hold = await worker
        .acquire({ waitMs: 5_000, name: `bench:warm:${tag}:${i}` })
        .catch(() => null);
      await hold?.release().catch(() => undefined);
    }),
  );
}
