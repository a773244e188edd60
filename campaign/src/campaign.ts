import { checkHistory, type CheckResult } from "./checker/check.ts";
import type { CheckOptions } from "./checker/options.ts";
import { formatReport } from "./checker/report.ts";
import { DEFAULT_FAULTS } from "./faults/catalog.ts";
import type { Fault } from "./faults/fault.ts";
import { Recorder } from "./history/recorder.ts";
import type { History } from "./history/types.ts";
import { Random } from "./random.ts";
import { buildWorld } from "./run/build-world.ts";
import { drive } from "./run/drive.ts";
import { withInfrastructure } from "./run/infrastructure.ts";
import { windDown } from "./run/wind-down.ts";
import { ALL_ACTIVITIES } from "./workload/activities.ts";
import type { Activity } from "./workload/primitives/index.ts";
import { DEFAULT_NAMES, type Names } from "./workload/world.ts";
import type { ClientSettings } from "./world/worker-client.ts";

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
  /**
   * The share of leased sections (the Lock and its kin) whose lease is probed right after the
   * acquire: the holder's belief read beside the server's lease (checker rule `dishonest-lease`).
   * A probe is one request more in the section. @default 0.5
   */
  readonly leaseProbeChance?: number;
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
export function runCampaign(options: CampaignOptions): Promise<CampaignResult> {
  const log = options.log ?? (() => undefined);
  return withInfrastructure(async (stack, resourceRedisUrl) => {
    const rng = new Random(options.seed);
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
    const names = options.names ?? DEFAULT_NAMES;
    const workers = options.workers ?? 12;
    const built = await buildWorld({
      stack,
      resourceRedisUrl,
      settings,
      names,
      workers,
      recorder,
      rng,
      leaseProbeChance: options.leaseProbeChance ?? 0.5,
    });
    const mode =
      settings.quarantineMs === undefined
        ? "quarantine off"
        : `quarantine ${settings.quarantineMs} ms`;
    log(`campaign seed ${options.seed}: ${workers} workers for ${options.seconds} s, ${mode}`);
    const ctx = { stack, ...built, recorder, rng: rng.fork(), episodeMs: 2_000, firstRound: true };
    await drive(
      ctx,
      options.faults ?? DEFAULT_FAULTS,
      options.activities ?? ALL_ACTIVITIES,
      options.seconds,
    );
    log("settling: waiting for background work, then auditing what is left");
    await windDown(built.world, built.driverClient, stack);
    const strict = { relaxAcrossDataLoss: settings.quarantineMs === undefined };
    const result = checkHistory(recorder.history, { ...strict, ...options.check });
    return { history: recorder.history, result, report: formatReport(result, options.seed) };
  });
}
