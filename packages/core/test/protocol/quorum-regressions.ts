import { keyPrefix } from "@edgelock/testkit";
import { describe, expect, it } from "vitest";
import { LockError, quorumLock, resolveBackend, type RedisInput } from "../../src/index.ts";
import { quorumKeys } from "../../src/keys.ts";
import { extendScript } from "../../src/quorum/scripts.generated.ts";
import { delay, makeTestClient } from "../support.ts";
import { lateCopyBackend, runs } from "./late-copy-backend.ts";
import type { RegressionTarget } from "./lock-regressions.ts";

/**
 * Issue 13's finding 2 on the quorum lock, as reproduced against c6a5b43 (where it fails): five
 * databases (kept apart by their prefixes on one server), each behind its own late-copy wrapper,
 * so REST and TCP see the same reordering.
 */
export function runQuorumRegressions(target: RegressionTarget): void {
  describe(`Quorum lock protocol regressions (issue 13): ${target.name}`, () => {
    it("fresh clients (no server time yet): acquire 10, extend 5 and release 5 requests over 5 databases", async () => {
      const base = keyPrefix();
      const prefixes = [0, 1, 2, 3, 4].map((i) => `${base}-db${i}`);
      const redis: RedisInput[] = [];
      for (let i = 0; i < prefixes.length; i++) redis.push(await target.makeRedis());
      const clients = (i: number) => makeTestClient(redis[i]!, { prefix: prefixes[i]! });
      const warm = await quorumLock(
        prefixes.map((_, i) => clients(i).client),
        "fresh",
        { requestTimeoutMs: 3_000 },
      ).acquire({ leaseMs: 10_000 });
      await warm.extend(10_000);
      await warm.release(); // scripts loaded, connections warm
      const fresh = prefixes.map((_, i) => clients(i));
      const total = () => fresh.reduce((sum, t) => sum + t.requests.total, 0);
      const q = quorumLock(
        fresh.map((t) => t.client),
        "fresh",
        { requestTimeoutMs: 3_000 },
      );
      const held = await q.acquire({ leaseMs: 10_000 });
      expect(total()).toBe(10);
      await held.extend(10_000);
      expect(total()).toBe(15);
      await held.release();
      expect(total()).toBe(20);
    });

    it("finding 2: a late copy of an extend that ended in doubt never shortens a later, longer one", async () => {
      const base = keyPrefix();
      const prefixes = [0, 1, 2, 3, 4].map((i) => `${base}-db${i}`);
      const dbs = await Promise.all(
        prefixes.map(async (prefix) => {
          const backend = resolveBackend(await target.makeRedis());
          const late = lateCopyBackend(backend);
          return { prefix, backend, late, client: makeTestClient(late.backend, { prefix }).client };
        }),
      );
      const clients = dbs.map((d) => d.client);
      // Scripts loaded and connections warm (generously), so that only the held copies time out.
      const warm = await quorumLock(clients, "f2", { requestTimeoutMs: 3_000 }).acquire({
        leaseMs: 10_000,
      });
      await warm.extend(10_000);
      await warm.release();
      const q = quorumLock(clients, "f2", { requestTimeoutMs: 400 });
      const held = await q.acquire({ leaseMs: 10_000 });
      for (const d of dbs) d.late.on(runs(extendScript, 2_000), { kind: "hold" }, 1_000);
      await expect(held.extend(2_000)).rejects.toBeInstanceOf(LockError);
      for (const d of dbs) d.late.clear();
      await held.extend(20_000);
      for (const d of dbs) expect(d.late.heldCount).toBeGreaterThanOrEqual(1);
      for (const d of dbs) await d.late.deliver();
      const pttls = await Promise.all(
        dbs.map(async (d) =>
          Number(
            await d.backend.command(
              ["PTTL", quorumKeys(d.prefix, "f2").lock],
              AbortSignal.timeout(5_000),
            ),
          ),
        ),
      );
      for (const ms of pttls) expect(ms).toBeGreaterThan(15_000);
      // what the holder believes never outlasts what a majority of the databases have
      const majority = [...pttls].sort((a, b) => b - a)[2]!;
      expect(held.toJSON().expiresAt - Date.now()).toBeLessThanOrEqual(majority + 50);
      await delay(2_500);
      expect(await q.tryAcquire({ leaseMs: 5_000 })).toBeNull();
      expect(held.signal.aborted).toBe(false);
      await held.release();
    });
  });
}
