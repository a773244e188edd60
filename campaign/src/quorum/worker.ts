import {
  createClient,
  LockError,
  NotHeldError,
  quorumLock,
  resolveBackend,
  type HeldQuorumLock,
  type LockEvent,
  type QuorumLock,
} from "@edgelock/core";
import { makeNodeRedis } from "@edgelock/testkit";
import type { SectionRecord } from "../history/types.ts";
import type { Random } from "../random.ts";
import { pause } from "../workload/pause.ts";
import { watchSignal } from "../workload/section.ts";
import type { QuorumWorld } from "./types.ts";

/** The quorum client settings of every worker. */
export const QUORUM_LEASE_MS = 1_500;
export const QUORUM_REQUEST_TIMEOUT_MS = 150;

/** One worker: its own node-redis connection and edgelock client per database, as an app would have. */
export async function startQuorumWorker(
  world: QuorumWorld,
  id: string,
): Promise<() => Promise<void>> {
  const { events } = world.recorder.history;
  const onEvent = (event: LockEvent) => void (events[event.type] = (events[event.type] ?? 0) + 1);
  const raws = await Promise.all(world.urls.map((url) => makeNodeRedis(url)));
  const clients = raws.map((raw) =>
    createClient({
      redis: resolveBackend(raw),
      prefix: world.prefix,
      leaseMs: QUORUM_LEASE_MS,
      onEvent,
    }),
  );
  const locks = world.names.map((name) =>
    quorumLock(clients, name, { requestTimeoutMs: QUORUM_REQUEST_TIMEOUT_MS }),
  );
  const rng = world.rng.fork();
  return async () => {
    while (Date.now() < world.deadline) await oneSection(world, id, rng, rng.pick(locks));
  };
}

async function oneSection(
  world: QuorumWorld,
  id: string,
  rng: Random,
  lock: QuorumLock,
): Promise<void> {
  const { recorder } = world;
  const resource = `quorum:${lock.name}`;
  const acquireSeq = recorder.next();
  // Half the holds renew through the keeper (no leaseMs), half run on a fixed lease.
  const fixed = rng.chance(0.5) ? { leaseMs: rng.int(600, QUORUM_LEASE_MS) } : {};
  let held: HeldQuorumLock | null;
  try {
    held = rng.chance(0.2)
      ? await lock.tryAcquire(fixed)
      : await lock.acquire({ ...fixed, waitMs: rng.int(0, 600) });
  } catch (error) {
    const code = failed(world, id, "acquire", error);
    world.acquires.push({ startSeq: acquireSeq, endSeq: recorder.next(), outcome: code });
    await pause(rng.int(5, 50));
    return;
  }
  world.acquires.push({
    startSeq: acquireSeq,
    endSeq: recorder.next(),
    outcome: held ? "granted" : "busy",
  });
  if (!held) return void (await pause(rng.int(5, 50)));
  const section = recorder.enter({
    acquireSeq,
    worker: id,
    primitive: "lock",
    mode: "exclusive",
    resources: [resource],
    capacity: 1,
    fences: { [resource]: held.fence },
  });
  watchSignal(recorder, section, held.signal);
  // Most sections are short; some outlive a fixed lease or a database's restart.
  const long = rng.chance(0.1);
  const steps = rng.int(1, 3);
  for (let step = 0; step < steps && section.toldSeq === undefined; step++) {
    recorder.write(
      section,
      resource,
      held.fence,
      await world.resources.write(resource, held.fence),
    );
    await pause(long ? rng.int(300, 2_000) : rng.int(1, 25), held.signal);
  }
  recorder.exit(section);
  await release(world, id, section, held);
}

async function release(
  world: QuorumWorld,
  id: string,
  section: SectionRecord,
  held: HeldQuorumLock,
): Promise<void> {
  const { recorder } = world;
  try {
    await held.release();
    recorder.end(section, "released");
  } catch (error) {
    if (error instanceof NotHeldError) {
      recorder.tell(section, "release:NOT_HELD");
      return recorder.end(section, "lost");
    }
    failed(world, id, "release", error);
    recorder.end(section, "unknown");
  }
}

/** Counts a failure by its typed error's code; anything untyped is recorded (a violation). */
function failed(world: QuorumWorld, id: string, operation: string, error: unknown): string {
  const { recorder } = world;
  const code = error instanceof LockError ? error.code : "UNTYPED";
  const key = `${operation}-failed:${code}`;
  recorder.history.events[key] = (recorder.history.events[key] ?? 0) + 1;
  if (code === "UNTYPED") recorder.untyped(id, `quorum ${operation}`, error);
  return code;
}
