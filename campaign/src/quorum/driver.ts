import type { RedisProcess } from "@edgelock/testkit";
import { pause } from "../workload/pause.ts";
import type { DriverLog, QuorumWorld, RestartKind } from "./types.ts";

/** At most this many databases down at once, outside the majority-down episodes (N = 5: 2). */
const minorityOf = (n: number): number => Math.floor((n - 1) / 2);

/**
 * Stops and restarts random databases at random times until the deadline: crashes (SIGKILL, back
 * after a random outage) and bounces (SIGTERM and straight back), each with or without `flush`
 * (data loss), never more than a minority down at once; and now and then an episode with a
 * majority down, in which no acquisition may be granted. Everything is back up when it returns.
 */
export async function drivePartitions(
  world: QuorumWorld,
  dbs: readonly RedisProcess[],
): Promise<DriverLog> {
  const { rng, recorder } = world;
  const log: DriverLog = {
    restarts: { crash: 0, "crash-flush": 0, bounce: 0, "bounce-flush": 0 },
    episodes: [],
    maxDownOutsideEpisodes: 0,
  };
  const down = new Set<number>();
  const pending = new Set<Promise<void>>();
  const track = (p: Promise<void>) => {
    pending.add(p);
    void p.finally(() => pending.delete(p));
  };
  const markDown = (i: number) => {
    down.add(i);
    log.maxDownOutsideEpisodes = Math.max(log.maxDownOutsideEpisodes, down.size);
  };
  /** Brings database `i` back (with or without its data) and records a data loss. */
  const restart = async (i: number, kind: RestartKind, lossStart: number) => {
    const flush = kind.endsWith("flush");
    await dbs[i]!.restart({ flush });
    log.restarts[kind]++;
    if (flush) recorder.dataLoss(lossStart, `db ${i} ${kind}`);
    recorder.fault(kind, `db ${i}`);
    down.delete(i);
  };

  const majority = minorityOf(dbs.length) + 1;
  let nextEpisode = Date.now() + rng.int(3_000, 5_000);
  while (Date.now() < world.deadline - 1_000) {
    await pause(rng.int(50, 400));
    if (Date.now() >= nextEpisode && Date.now() < world.deadline - 3_000) {
      await Promise.all(pending);
      await majorityDown(world, dbs, majority, log, restart);
      nextEpisode = Date.now() + rng.int(4_000, 7_000);
      continue;
    }
    const up = dbs.map((_, i) => i).filter((i) => !down.has(i));
    if (down.size >= minorityOf(dbs.length) || up.length === 0) continue;
    const i = rng.pick(up);
    const flush = rng.chance(0.4);
    const lossStart = recorder.next();
    markDown(i);
    if (rng.chance(0.6)) {
      await dbs[i]!.kill();
      const outage = rng.int(100, 2_000);
      track(pause(outage).then(() => restart(i, flush ? "crash-flush" : "crash", lossStart)));
    } else {
      track(restart(i, flush ? "bounce-flush" : "bounce", lossStart));
    }
  }
  await Promise.all(pending);
  return log;
}

/** A majority down for 1–2.5 s: kills until `majority` are down, then restarts them all. */
async function majorityDown(
  world: QuorumWorld,
  dbs: readonly RedisProcess[],
  majority: number,
  log: DriverLog,
  restart: (i: number, kind: RestartKind, lossStart: number) => Promise<void>,
): Promise<void> {
  const { rng, recorder } = world;
  const victims = rng.shuffle(dbs.map((_, i) => i)).slice(0, majority);
  const lossStart = recorder.next();
  for (const i of victims) {
    await dbs[i]!.kill();
    await pause(rng.int(0, 200));
  }
  const episode = { startSeq: recorder.next(), endSeq: Infinity, down: victims };
  log.episodes.push(episode);
  recorder.fault("majority-down", `dbs ${victims.join(",")}`);
  await pause(rng.int(1_000, 2_500));
  episode.endSeq = recorder.next();
  await Promise.all(
    victims.map((i) => restart(i, rng.chance(0.3) ? "crash-flush" : "crash", lossStart)),
  );
}
