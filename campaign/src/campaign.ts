import { closeAll, makeNodeRedis, startRedis, startStack, type Stack } from "@edgelock/testkit";
import { checkHistory, type CheckResult } from "./checker/check.ts";
import type { CheckOptions } from "./checker/options.ts";
import { formatReport } from "./checker/report.ts";
import { Canary } from "./faults/canary.ts";
import { DEFAULT_FAULTS } from "./faults/catalog.ts";
import { runDriver } from "./faults/driver.ts";
import type { Fault } from "./faults/fault.ts";
import { Recorder } from "./history/recorder.ts";
import type { History } from "./history/types.ts";
import { Random } from "./random.ts";
import { FencedResources } from "./resource/fenced-resource.ts";
import { ALL_ACTIVITIES } from "./workload/activities.ts";
import { audit } from "./workload/audit.ts";
import { pause } from "./workload/pause.ts";
import type { Activity } from "./workload/primitives/index.ts";
import { setPermits } from "./workload/setup.ts";
import { workerLoop } from "./workload/worker-loop.ts";
import { DEFAULT_NAMES, type Names, type Worker, type World } from "./workload/world.ts";
import { installClockSkew, runSkewed } from "./world/clock-skew.ts";
import { makeWorkerClient, type ClientSettings } from "./world/worker-client.ts";

export interface CampaignOptions {
  /** How long workers run while faults are injected. */
  readonly seconds: number;
  /** Seeds every random choice (printed with the report). */
  readonly seed: number;
  /** @default 12 */
  readonly workers?: number;
  /** @default DEFAULT_FAULTS */
  readonly faults?: readonly Fault[];
  /** @default ALL_ACTIVITIES */
  readonly activities?: readonly Activity[];
  /** @default DEFAULT_NAMES */
  readonly names?: Names;
  readonly check?: CheckOptions;
  /**
   * Runs every client with the restart quarantine (`quarantineMs`, at least the longest lease the
   * workload takes: 3 000 ms), and checks strictly across data losses unless `check` says otherwise.
   * Absent: quarantine off, overlaps of leased holds excused across a detected data loss.
   */
  readonly quarantineMs?: number;
  /** Client times; small so that faults bite within a short run. */
  readonly client?: Partial<Pick<ClientSettings, "leaseMs" | "requestTimeoutMs" | "retryWindowMs">>;
  /** Progress lines. */
  readonly log?: (line: string) => void;
}

export interface CampaignResult {
  readonly history: History;
  readonly result: CheckResult;
  readonly report: string;
}

export const DEFAULT_CAMPAIGN_CLIENT = Object.freeze({
  leaseMs: 1_500,
  requestTimeoutMs: 400,
  retryWindowMs: 1_500,
});

/**
 * Runs a fault campaign: a Redis with an append-only file behind a faulty rest-server (the lock
 * service), a second Redis for the fenced resources, workers each with a client of its own, a
 * fault driver; then settles, audits what is left, and checks the history.
 */
export async function runCampaign(options: CampaignOptions): Promise<CampaignResult> {
  const log = options.log ?? (() => undefined);
  const rng = new Random(options.seed);
  const names = options.names ?? DEFAULT_NAMES;
  const uninstallSkew = installClockSkew();
  const stack = await startStack({ persistence: true });
  const resourceRedis = await startRedis();
  try {
    const recorder = new Recorder(options.seed);
    const quarantine =
      options.quarantineMs === undefined ? {} : { quarantineMs: options.quarantineMs };
    const settings: ClientSettings = {
      url: stack.rest.url,
      token: stack.rest.token,
      prefix: `c${options.seed}`,
      ...DEFAULT_CAMPAIGN_CLIENT,
      ...options.client,
      ...quarantine,
    };
    const resources = new FencedResources(await makeNodeRedis(resourceRedis.url), settings.prefix);
    const world: World = {
      recorder,
      resources,
      names,
      settings,
      workers: [],
      latchesBusy: new Set(),
    };
    for (let i = 0; i < (options.workers ?? 12); i++) {
      const id = `w${i}`;
      world.workers.push({
        id,
        wc: makeWorkerClient(id, settings, recorder),
        rng: rng.fork(),
        skew: { ms: 0 },
        world,
      });
    }
    const driverClient = makeWorkerClient("driver", settings, recorder);
    // First deploy: write the quarantine's sentinel, so the very first grants are not refused.
    if (settings.quarantineMs !== undefined)
      await driverClient.track("initialize", () => driverClient.client.initialize());
    await setPermits(driverClient, names);
    const canary = new Canary(await makeNodeRedis(stack.redis.url), `${settings.prefix}:canary`);
    const mode =
      settings.quarantineMs === undefined
        ? "quarantine off"
        : `quarantine ${settings.quarantineMs} ms`;
    log(
      `campaign seed ${options.seed}: ${world.workers.length} workers for ${options.seconds} s, ${mode}`,
    );
    const stopFaults = new AbortController();
    const stopWorkers = new AbortController();
    const activities = options.activities ?? ALL_ACTIVITIES;
    const running = world.workers.map((w: Worker) =>
      runSkewed(w.skew, () => workerLoop(w, activities, stopWorkers.signal)),
    );
    const context = {
      stack,
      world,
      recorder,
      rng: rng.fork(),
      canary,
      driverClient,
      episodeMs: 2_000,
    };
    const driving = runDriver(context, options.faults ?? DEFAULT_FAULTS, stopFaults.signal);
    await pause(options.seconds * 1_000);
    stopFaults.abort();
    await driving; // finishes its first round of every kind, however long that takes
    stopWorkers.abort();
    await Promise.all(running);
    log("settling: waiting for background work, then auditing what is left");
    await settle(world, driverClient, stack);
    recorder.history.finals.push(
      ...(await audit(driverClient, names, 3 * settings.leaseMs + 2 * settings.retryWindowMs)),
    );
    const strict = { relaxAcrossDataLoss: settings.quarantineMs === undefined };
    const result = checkHistory(recorder.history, { ...strict, ...options.check });
    return { history: recorder.history, result, report: formatReport(result, options.seed) };
  } finally {
    // The testkit waits for a stopped redis-server's exit with nothing holding the event loop
    // open (the child and its timeout are unref'd): outside vitest, a plain script would end in
    // the middle of that await (exit code 13). Hold the loop open until both are stopped.
    const keepAlive = setInterval(() => undefined, 1_000);
    try {
      await closeAll();
      await stack.close();
      await resourceRedis.stop();
    } finally {
      clearInterval(keepAlive);
      uninstallSkew();
    }
  }
}

async function settle(
  world: World,
  driverClient: ReturnType<typeof makeWorkerClient>,
  stack: Stack,
): Promise<void> {
  await stack.faults.clear();
  await Promise.all([
    ...world.workers.map((w) => w.wc.client.settled()),
    driverClient.client.settled(),
  ]);
}
