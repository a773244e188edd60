import { Redis } from "@upstash/redis";
import {
  closeAll,
  makeNodeRedisCluster,
  migrateSlot,
  startCluster,
  startRestFront,
  type RedisClusterProcess,
  type RestFront,
  type SlotMigration,
} from "@edgelock/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { slotOf } from "../../src/cluster-slot.ts";
import { delay } from "../support.ts";
import { errorStat } from "./cluster-support.ts";
import { lockContention } from "./migration-workload.ts";

// A slot migration under a Lock contention workload: the lock's slot moves from its master to a
// second and then a third while 6 workers keep taking the lock, so requests meet MOVED, ASK and
// TRYAGAIN. Nothing may be lost: no overlapping critical sections, fences increasing (the fence
// counter moved with the slot), every fenced write accepted, every failure a typed error.

let cluster: RedisClusterProcess;
let rest: RestFront;

beforeAll(async () => {
  cluster = await startCluster({ masters: 3 });
  rest = await startRestFront(cluster.urls[0]!, { cluster: true });
});
afterAll(async () => {
  await closeAll();
  await rest?.close();
  await cluster?.close();
});

const WORKERS = 6;
const STATS = ["MOVED", "ASK", "TRYAGAIN"] as const;

const paths = {
  tcp: () => makeNodeRedisCluster(cluster.urls),
  rest: () => Promise.resolve(new Redis({ url: rest.url, token: rest.token })),
};

describe.sequential("slot migration during Lock contention", () => {
  for (const [path, makeRedis] of Object.entries(paths)) {
    it(`${path}: the lock's slot moves twice mid-campaign; nothing is lost`, async () => {
      const tag = `mig-${path}`;
      const slot = slotOf(tag);
      const before = await Promise.all(STATS.map((s) => errorStat(cluster, s)));
      let finish!: () => void;
      const stop = new Promise<void>((resolve) => (finish = resolve));
      const running = lockContention(
        makeRedis,
        `orders{${tag}}`,
        `resource:{${tag}}`,
        WORKERS,
        stop,
      );
      const migrations: SlotMigration[] = [];
      try {
        await delay(400);
        const first = await migrateSlot(cluster, slot, (ownerIndex(slot) + 1) % 3, {
          batch: 5,
          pauseMs: 20,
        });
        migrations.push(first);
        await delay(300);
        migrations.push(
          await migrateSlot(cluster, slot, (first.to + 1) % 3, { batch: 5, pauseMs: 20 }),
        );
        await delay(300);
      } finally {
        finish();
      }
      const report = await running;
      const after = await Promise.all(STATS.map((s) => errorStat(cluster, s)));
      const redirects = Object.fromEntries(STATS.map((s, i) => [s, after[i]! - before[i]!]));
      console.log(
        `[slot migration ${path}] slot ${slot}: ${migrations.map((m) => `node ${m.from}→${m.to} (${m.keysMoved} keys, ${m.batches} MIGRATEs)`).join(", ")}; ` +
          `${report.sections} critical sections, fenced writes ${report.writesAccepted} accepted / ${report.writesRejected} rejected, ` +
          `failures ${JSON.stringify(report.failures)}, TRYAGAIN retries ${report.tryAgainRetries}, server replies ${JSON.stringify(redirects)}, ` +
          `overlaps ${report.recorder.overlaps().length}`,
      );
      expect(migrations.every((m) => m.keysMoved > 0)).toBe(true);
      expect(report.sections).toBeGreaterThanOrEqual(5);
      expect(redirects["ASK"]! + redirects["TRYAGAIN"]!).toBeGreaterThan(0); // it met the half-moved slot
      expect(report.recorder.overlaps()).toEqual([]);
      expect(report.recorder.fencesIncreasingInGrantOrder()).toBe(true);
      expect(report.untyped).toEqual([]);
      expect(report.tryAgainFailures).toBe(0); // refused before running: retried, never surfaced
      expect(report.writesRejected).toBe(0);
      expect(report.writesAccepted).toBe(report.sections);
      const fences = report.recorder.intervals().map((i) => i.fence!);
      expect(report.lastWrite).toBe(Math.max(...fences));
    });
  }
});

/** Which of the 3 masters owns `slot` at start: `redis-cli --cluster create` splits the slots evenly in node order. */
function ownerIndex(slot: number): number {
  return Math.min(2, Math.floor(slot / Math.ceil(16_384 / 3)));
}
