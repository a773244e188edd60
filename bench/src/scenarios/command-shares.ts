import { randomBytes } from "node:crypto";
import { createClient, type LockEvent } from "@edgelock/core";
import { createClient as createNodeRedis } from "redis";
import { attributed, type Attribution } from "../net/command-attribution.ts";
import type { Network } from "../net/network.ts";

/**
 * Each primitive's Redis commands split into the operation protocol's share and its own, for an
 * uncontended acquire + release and per section of a contended hand-off (a holder, one queued
 * waiter polling at a fixed 200 ms: one busy poll, then the claim). The same scenarios as
 * packages/core/test/command-breakdown.test.ts, which pins them.
 */
export const PRIMITIVES = [
  "Lock",
  "FairLock",
  "read lock",
  "write lock",
  "Semaphore",
  "PermitExpirableSemaphore",
] as const;
type Primitive = (typeof PRIMITIVES)[number];

export interface CommandShares {
  readonly primitive: Primitive;
  readonly uncontended: Attribution;
  /** Per critical section; absent for the read lock (readers share, no hand-off). */
  readonly contended?: Attribution;
}

type Client = ReturnType<typeof createClient>;
const take = (client: Client, p: Primitive, name: string, waitMs = 0) => {
  const opts = { leaseMs: 10_000, waitMs };
  switch (p) {
    case "Lock":
      return client.lock(name).acquire(opts);
    case "FairLock":
      return client.fairLock(name).acquire(opts);
    case "read lock":
      return client.readWriteLock(name).read.acquire(opts);
    case "write lock":
      return client.readWriteLock(name).write.acquire(opts);
    case "Semaphore":
      return client.semaphore(name).acquire({ waitMs });
    case "PermitExpirableSemaphore":
      return client.permitExpirableSemaphore(name).acquire(opts);
  }
};

export async function runCommandShares(network: Network): Promise<CommandShares[]> {
  const redis = createNodeRedis({ url: network.redis.url });
  await redis.connect();
  const events: LockEvent[] = [];
  const wait = { name: "fixed", maxDelayMs: 200, nextDelay: () => 200 };
  const client = createClient({ redis, wait, onEvent: (e) => void events.push(e) });
  const out: CommandShares[] = [];
  try {
    for (const p of PRIMITIVES) {
      const name = `shares:${randomBytes(4).toString("hex")}`;
      if (p === "Semaphore") await client.semaphore(name).trySetPermits(1);
      if (p === "PermitExpirableSemaphore")
        await client.permitExpirableSemaphore(name).trySetPermits(1);
      await (await take(client, p, name)).release(); // scripts loaded
      const uncontended = await attributed(network.redis.url, async () => {
        await (await take(client, p, name)).release();
      });
      let contended: Attribution | undefined;
      if (p !== "read lock") {
        events.length = 0;
        const both = await attributed(network.redis.url, async () => {
          const first = await take(client, p, name);
          const waiting = take(client, p, name, 5_000);
          while (!events.some((e) => e.type === "waited"))
            await new Promise((r) => setTimeout(r, 2));
          await first.release();
          await (await waiting).release();
        });
        contended = { calls: both.calls / 2, protocol: both.protocol / 2, own: both.own / 2 };
      }
      out.push(
        contended ? { primitive: p, uncontended, contended } : { primitive: p, uncontended },
      );
    }
  } finally {
    await client.settled();
    await redis.quit();
  }
  return out;
}
