import { IntervalRecorder, keyPrefix } from "@edgelock/testkit";
import { LockError, resolveBackend, type LockEvent, type RedisInput } from "../../src/index.ts";
import { delay, makeTestClient } from "../support.ts";

/** Sets the resource to `fence` only if it is newer than what it holds: 1 accepted, 0 stale. */
const FENCED_WRITE = `
local current = tonumber(redis.call('GET', KEYS[1]) or '0')
if tonumber(ARGV[1]) > current then redis.call('SET', KEYS[1], ARGV[1]) return 1 end
return 0`;

export interface WorkloadReport {
  readonly sections: number;
  readonly writesAccepted: number;
  readonly writesRejected: number;
  /** Failed critical sections by error class; every one must be a typed `LockError`. */
  readonly failures: Record<string, number>;
  readonly untyped: readonly unknown[];
  /** Failures whose message is TRYAGAIN: the engine should have retried them. */
  readonly tryAgainFailures: number;
  /** `retried` events whose error was Redis Cluster's TRYAGAIN. */
  readonly tryAgainRetries: number;
  readonly recorder: IntervalRecorder;
  readonly lastWrite: number;
}

/**
 * `workers` clients, each its own connection, contend for lock `name` until `stop` resolves; each
 * critical section writes the fenced resource (a key under the lock's hash tag, so it migrates
 * with the lock).
 */
export async function lockContention(
  makeRedis: () => Promise<RedisInput>,
  name: string,
  resourceKey: string,
  workers: number,
  stop: Promise<void>,
): Promise<WorkloadReport> {
  const prefix = keyPrefix();
  const recorder = new IntervalRecorder();
  const events: LockEvent[] = [];
  const failures: Record<string, number> = {};
  const untyped: unknown[] = [];
  let tryAgainFailures = 0;
  let stopped = false;
  let [sections, accepted, rejected] = [0, 0, 0];
  void stop.then(() => (stopped = true));
  const worker = async (id: number) => {
    const redis = await makeRedis();
    const raw = resolveBackend(redis);
    const { client, events: own } = makeTestClient(redis, { prefix });
    while (!stopped) {
      try {
        await client.lock(name).withLock(
          async (held) => {
            const section = recorder.enter(`w${id}`, held.fence);
            try {
              const reply = await raw.command(
                ["EVAL", FENCED_WRITE, 1, resourceKey, held.fence],
                new AbortController().signal,
              );
              if (reply === 1) accepted++;
              else rejected++;
              await delay(2);
            } finally {
              section.exit();
            }
          },
          { waitMs: 15_000 },
        );
        sections++;
      } catch (error) {
        const kind = (error as Error)?.name ?? "unknown";
        failures[kind] = (failures[kind] ?? 0) + 1;
        if (!(error instanceof LockError)) untyped.push(error);
        if (/TRYAGAIN/.test(String((error as Error)?.message))) tryAgainFailures++;
      }
    }
    await client.settled();
    events.push(...own);
  };
  await Promise.all(Array.from({ length: workers }, (_, i) => worker(i)));
  const last = Number(
    await resolveBackend(await makeRedis()).command(
      ["GET", resourceKey],
      new AbortController().signal,
    ),
  );
  return {
    sections,
    writesAccepted: accepted,
    writesRejected: rejected,
    failures,
    untyped,
    tryAgainFailures,
    tryAgainRetries: events.filter((e) => e.type === "retried" && /TRYAGAIN/.test(e.error.message))
      .length,
    recorder,
    lastWrite: last,
  };
}
