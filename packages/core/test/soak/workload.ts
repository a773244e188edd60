import { AbortedError, AcquireTimeoutError, QuorumError } from "../../src/index.ts";
import { Occupancy } from "./exclusion.ts";
import { KINDS, type Kind, type TakeOptions, type WorkerClients } from "./kinds.ts";

export interface SoakTally {
  readonly sections: Record<string, number>;
  timeouts: number;
  aborted: number;
  /** Quorum rounds where too few databases answered in time: Redlock's answer to a slow database. */
  unreachable: number;
  forgotten: number;
  readonly unexpected: unknown[];
  readonly occupancy: Occupancy;
}

export function newTally(): SoakTally {
  return {
    sections: {},
    timeouts: 0,
    aborted: 0,
    unreachable: 0,
    forgotten: 0,
    unexpected: [],
    occupancy: new Occupancy(),
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const between = (lo: number, hi: number) => lo + Math.random() * (hi - lo);

/**
 * One worker: critical sections on one primitive until `until` (monotonic ms), paced by a think
 * time so the soak shares two CPU cores with other tests. Some holds are kept alive by the
 * keeper, some waits are aborted, some fixed leases are never released (they must expire).
 */
export async function runWorker(
  name: string,
  w: WorkerClients,
  until: number,
  t: SoakTally,
): Promise<void> {
  const kind = KINDS[name]!;
  while (performance.now() < until) {
    try {
      await oneSection(name, kind, w, t);
    } catch (error) {
      if (error instanceof AcquireTimeoutError) t.timeouts++;
      else if (error instanceof AbortedError) t.aborted++;
      else if (error instanceof QuorumError && error.reason === "unreachable") t.unreachable++;
      else t.unexpected.push(error);
    }
    await sleep(between(...(kind.thinkMs ?? [5, 25])));
  }
}

async function oneSection(name: string, kind: Kind, w: WorkerClients, t: SoakTally): Promise<void> {
  const roll = Math.random();
  const keepAlive = kind.leased && roll < 0.1;
  const o: TakeOptions = {
    waitMs: 1_000,
    ...(!keepAlive && { leaseMs: 1_000 }),
    ...(roll > 0.95 && { signal: AbortSignal.timeout(Math.round(between(0, 30))) }),
  };
  const held = await kind.take(w, o);
  t.occupancy.enter(kind.resource, kind.weight, kind.limit);
  // a kept-alive hold lasts past one renewal (lease / 3), so the keeper runs too
  await sleep(keepAlive ? between(350, 450) : between(0, 4));
  t.occupancy.leave(kind.resource, kind.weight);
  t.sections[name] = (t.sections[name] ?? 0) + 1;
  if (kind.leased && !keepAlive && roll > 0.9 && roll <= 0.93) {
    t.forgotten++; // never released: the lease runs out on the server
    return;
  }
  await held.release();
}

/** A latch per round: set to 2, counted down by two parties at once, awaited open. */
export async function runLatchWorker(
  id: number,
  w: WorkerClients,
  until: number,
  t: SoakTally,
): Promise<void> {
  for (let round = 0; performance.now() < until; round++) {
    try {
      const latch = w.client.countDownLatch(`latch-${id}-${round % 3}`);
      await latch.trySetCount(2, { ttlMs: 3_000 });
      await Promise.all([latch.countDown(), latch.countDown()]);
      if (await latch.await({ waitMs: 500 })) t.sections["latch"] = (t.sections["latch"] ?? 0) + 1;
    } catch (error) {
      t.unexpected.push(error);
    }
    await sleep(between(5, 25));
  }
}
