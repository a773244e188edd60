import { Redis } from "@upstash/redis";
import { closeAll, keyPrefix, makeNodeRedis, startStack, type Stack } from "@edgelock/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createClient,
  justInTimeStrategy,
  type ClientOptions,
  type EdgelockClient,
} from "../src/index.ts";
import { permitSemaphoreKeys, semaphoreKeys } from "../src/keys.ts";
import { configure, KINDS, type WorkerClients } from "./soak/kinds.ts";
import { allKeys, drain, measure, type RedisState } from "./soak/redis-state.ts";
import { newTally, runLatchWorker, runWorker, type SoakTally } from "./soak/workload.ts";

// Soak (issue 7, part 5): sustained contention on every primitive through both backends, then
// every holder leaves; once the TTLs pass, Redis must be back where it started: the same keys
// (only configuration, which is permanent by design) and the same memory, within a tolerance.
// EDGELOCK_SOAK_SECONDS sets the length (default 60).

const SECONDS = Number(process.env["EDGELOCK_SOAK_SECONDS"] ?? "60");
const WARM_UP_MS = 3_000;
const DRAIN_MS = 30_000;
/** used_memory may differ by this much: allocator rounding, dict tables Redis has not shrunk yet. */
const MEMORY_TOLERANCE_BYTES = 512 * 1024;

// Short TTLs everywhere the client allows, so the test waits seconds, not the production hours.
const OPTIONS: Omit<ClientOptions, "redis" | "prefix"> = {
  leaseMs: 1_000,
  claimWindowMs: 500,
  requestTimeoutMs: 2_000,
  retryWindowMs: 1_000,
  clockErrorMs: 200,
  // the least the client accepts: retryWindowMs + requestTimeoutMs + 2 × clockErrorMs + 1 s
  operationRecordTtlMs: 4_400,
  fenceTtlMs: 3_000,
  statsTtlMs: 2_000,
  wait: justInTimeStrategy({ maxMs: 250 }),
  quarantineMs: 2_500,
  sentinelTtlMs: 4_000,
};

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await closeAll();
  await stack.close();
});

async function workerClients(prefix: string, rest: boolean): Promise<WorkerClients> {
  const redis = rest
    ? new Redis({ url: stack.rest.url, token: stack.rest.token })
    : await makeNodeRedis(stack.redis.url);
  const client = createClient({ ...OPTIONS, redis, prefix });
  // three "databases" for a quorum: three prefixes on this one Redis, each its own keyspace
  const quorum = await Promise.all(
    [0, 1, 2].map(async (i) =>
      createClient({
        ...OPTIONS,
        redis: await makeNodeRedis(stack.redis.url),
        prefix: `${prefix}-q${i}`,
      }),
    ),
  );
  return { client, quorum };
}

/** Every primitive, two TCP workers and one REST worker (push over SSE) each, until `ms` from now. */
async function contend(
  workers: readonly WorkerClients[],
  ms: number,
  tally: SoakTally,
): Promise<void> {
  const until = performance.now() + ms;
  await Promise.all(
    workers.flatMap((w, i) => [
      ...Object.keys(KINDS).map((kind) => runWorker(kind, w, until, tally)),
      runLatchWorker(i, w, until, tally),
    ]),
  );
  await Promise.all(
    workers.flatMap((w) => [w.client, ...w.quorum]).map((c: EdgelockClient) => c.settled()),
  );
}

describe("soak", () => {
  it(
    `${SECONDS} s of contention on every primitive leaves only configuration keys and no memory behind`,
    { timeout: (SECONDS + 150) * 1_000 },
    async () => {
      const prefix = keyPrefix();
      const measurer = await makeNodeRedis(stack.redis.url);
      const workers = await Promise.all(
        [false, false, true].map((rest) => workerClients(prefix, rest)),
      );
      await configure(workers[0]!.client);
      const permanent = new Set([
        semaphoreKeys(prefix, "sem").state,
        permitSemaphoreKeys(prefix, "pes").state,
      ]);

      // Warm up (scripts cached, connections and pub/sub set up), drain, and take the baseline.
      await contend(workers, WARM_UP_MS, newTally());
      expect(await drain(measurer, permanent, DRAIN_MS)).toEqual([...permanent].sort());
      const before: RedisState = await measure(measurer);

      const tally = newTally();
      await contend(workers, SECONDS * 1_000, tally);
      const peak = await measure(measurer);
      const left = await drain(measurer, permanent, DRAIN_MS);
      const after: RedisState = await measure(measurer);

      const sections = Object.values(tally.sections).reduce((a, b) => a + b, 0);
      console.info(
        `[soak] ${SECONDS} s: ${sections} critical sections ${JSON.stringify(tally.sections)}; ` +
          `${tally.timeouts} timeouts, ${tally.aborted} aborted, ${tally.unreachable} quorum rounds unreachable, ${tally.forgotten} never released; ` +
          `keys ${before.keys} -> ${peak.keys} at the end of load -> ${after.keys}; ` +
          `used_memory ${before.usedMemory} -> ${peak.usedMemory} -> ${after.usedMemory} bytes; pub/sub channels ${after.channels}`,
      );
      expect(tally.unexpected).toEqual([]);
      expect(tally.occupancy.violations).toBe(0);
      for (const kind of [...Object.keys(KINDS), "latch"])
        expect(tally.sections[kind] ?? 0, kind).toBeGreaterThan(0);
      expect(left).toEqual([...permanent].sort());
      expect(after.keys).toBe(before.keys);
      expect(after.channels).toBe(0);
      expect(after.usedMemory - before.usedMemory).toBeLessThan(MEMORY_TOLERANCE_BYTES);
      expect(await allKeys(measurer)).toEqual([...permanent].sort());
    },
  );
});
