import { closeAll, keyPrefix, makeNodeRedis } from "@edgelock/testkit";
import { formatReport } from "../checker/report.ts";
import type { History } from "../history/types.ts";
import { Recorder } from "../history/recorder.ts";
import { Random } from "../random.ts";
import { FencedResources } from "../resource/fenced-resource.ts";
import { checkQuorumHistory, type QuorumCheckResult } from "./check.ts";
import { startQuorumInfrastructure } from "./databases.ts";
import { drivePartitions } from "./driver.ts";
import type { DriverLog, QuorumWorld } from "./types.ts";
import { startQuorumWorker } from "./worker.ts";

export interface QuorumCampaignOptions {
  readonly seconds: number;
  readonly seed: number;
  /** @default 6 */
  readonly workers?: number;
  /** @default 5 */
  readonly databases?: number;
  readonly log?: (line: string) => void;
}

export interface QuorumCampaignResult {
  readonly history: History;
  readonly driver: DriverLog;
  readonly result: QuorumCheckResult;
  readonly report: string;
}

/**
 * Workers run critical sections under `quorumLock` over independent redis-servers while a driver
 * crashes and bounces them (with and without data loss, a minority at a time, and in episodes a
 * majority); every section writes its fence to a fenced register on a redis-server of its own.
 */
export async function runQuorumCampaign(
  options: QuorumCampaignOptions,
): Promise<QuorumCampaignResult> {
  const { seconds, seed, log = () => undefined } = options;
  const infra = await startQuorumInfrastructure(options.databases ?? 5);
  try {
    const recorder = new Recorder(seed);
    const prefix = keyPrefix();
    const world: QuorumWorld = {
      recorder,
      resources: new FencedResources(await makeNodeRedis(infra.resource.url), prefix),
      urls: infra.dbs.map((db) => db.url),
      prefix,
      names: ["payouts", "ledger", "refunds"],
      acquires: [],
      deadline: Date.now() + seconds * 1_000,
      rng: new Random(seed),
    };
    log(`quorum campaign: seed ${seed}, ${seconds} s, ${infra.dbs.length} databases`);
    const loops = await Promise.all(
      Array.from({ length: options.workers ?? 6 }, (_, i) => startQuorumWorker(world, `q${i}`)),
    );
    const [driver] = await Promise.all([
      drivePartitions(world, infra.dbs),
      ...loops.map((loop) => loop()),
    ]);
    const result = checkQuorumHistory(recorder.history, world.acquires, driver.episodes);
    return {
      history: recorder.history,
      driver,
      result,
      report: quorumReport(result, driver, seed),
    };
  } finally {
    await closeAll();
    await infra.stop();
  }
}

function quorumReport(result: QuorumCheckResult, driver: DriverLog, seed: number): string {
  const entries = (r: Record<string, number>) =>
    Object.entries(r)
      .map(([k, v]) => `${k} ${v}`)
      .join(", ") || "none";
  return [
    "quorum lock under partitions (5 independent redis-servers)",
    formatReport({ figures: result.figures, violations: result.violations }, seed),
    `restarts by kind: ${entries(driver.restarts)}; at most ${driver.maxDownOutsideEpisodes} down outside the episodes`,
    `majority-down episodes: ${driver.episodes.length}; acquisitions inside them: ${entries(result.duringMajorityDown)}`,
  ].join("\n");
}
