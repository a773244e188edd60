import { makeNodeRedis, type Stack } from "@edgelock/testkit";
import { Canary } from "../faults/canary.ts";
import type { Recorder } from "../history/recorder.ts";
import type { Random } from "../random.ts";
import { FencedResources } from "../resource/fenced-resource.ts";
import { setPermits } from "../workload/setup.ts";
import { onTimePush } from "../world/push-faults.ts";
import type { Names, World } from "../workload/world.ts";
import {
  makeWorkerClient,
  type ClientSettings,
  type WorkerClient,
} from "../world/worker-client.ts";

export interface Built {
  readonly world: World;
  readonly driverClient: WorkerClient;
  readonly canary: Canary;
}

/**
 * The workers (each its own client and random stream), the driver's client, the fenced
 * resources, the data-loss canary; the quarantine's sentinel written as at a first deploy, and
 * the semaphores set.
 */
export async function buildWorld(p: {
  readonly stack: Stack;
  readonly resourceRedisUrl: string;
  readonly settings: ClientSettings;
  readonly names: Names;
  readonly workers: number;
  readonly recorder: Recorder;
  readonly rng: Random;
  readonly leaseProbeChance: number;
}): Promise<Built> {
  const { settings, recorder, names } = p;
  const resources = new FencedResources(await makeNodeRedis(p.resourceRedisUrl), settings.prefix);
  const world: World = {
    recorder,
    resources,
    names,
    settings,
    workers: [],
    latchesBusy: new Set(),
    leaseProbeChance: p.leaseProbeChance,
  };
  for (let i = 0; i < p.workers; i++) {
    const id = `w${i}`;
    const push = onTimePush();
    const wc = makeWorkerClient(id, settings, recorder, push);
    world.workers.push({ id, wc, rng: p.rng.fork(), skew: { ms: 0 }, push, world });
  }
  const driverClient = makeWorkerClient("driver", settings, recorder);
  if (settings.quarantineMs !== undefined) {
    await driverClient.track("initialize", () => driverClient.client.initialize());
  }
  await setPermits(driverClient, names);
  const canary = new Canary(await makeNodeRedis(p.stack.redis.url), `${settings.prefix}:canary`);
  return { world, driverClient, canary };
}
