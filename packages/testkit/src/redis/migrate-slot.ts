import { setTimeout as sleep } from "node:timers/promises";
import { TestkitError } from "../errors.ts";
import { makeNodeRedis, type NodeRedisClient } from "../node-redis-clients.ts";
import type { RedisClusterProcess } from "./start-cluster.ts";

export interface MigrateSlotOptions {
  /** Keys moved per MIGRATE. @default 10 */
  readonly batch?: number;
  /** Pause between batches, keeping the slot half-moved longer (more ASK and TRYAGAIN). @default 0 */
  readonly pauseMs?: number;
}

export interface SlotMigration {
  readonly slot: number;
  /** Indexes in `cluster.nodes`. */
  readonly from: number;
  readonly to: number;
  readonly keysMoved: number;
  readonly batches: number;
}

/**
 * Moves `slot` to `cluster.nodes[to]` while clients keep using it, the way `redis-cli --cluster
 * reshard` does: SETSLOT IMPORTING on the target, MIGRATING on the source, MIGRATE the keys in
 * batches, then SETSLOT NODE on the target, the source and every other master.
 */
export async function migrateSlot(
  cluster: RedisClusterProcess,
  slot: number,
  to: number,
  options: MigrateSlotOptions = {},
): Promise<SlotMigration> {
  const admins = await Promise.all(cluster.urls.map((url) => makeNodeRedis(url)));
  try {
    const ids = await Promise.all(
      admins.map(async (a) => String(await a.sendCommand<unknown>(["CLUSTER", "MYID"]))),
    );
    const from = await ownerOf(admins[0]!, cluster, slot);
    const source = admins[from]!;
    const target = admins[to];
    if (target === undefined || from === to) {
      throw new TestkitError(
        "redis-start",
        `cannot migrate slot ${slot} from node ${from} to node ${to}`,
      );
    }
    const s = String(slot);
    await target.sendCommand(["CLUSTER", "SETSLOT", s, "IMPORTING", ids[from]!]);
    await source.sendCommand(["CLUSTER", "SETSLOT", s, "MIGRATING", ids[to]!]);
    let keysMoved = 0;
    let batches = 0;
    for (;;) {
      const batch = String(options.batch ?? 10);
      const keys = (await source.sendCommand(["CLUSTER", "GETKEYSINSLOT", s, batch])) as string[];
      if (keys.length === 0) break;
      // No REPLACE: a key on both nodes would be a bug worth failing on (BUSYKEY).
      const port = String(cluster.nodes[to]!.port);
      await source.sendCommand(["MIGRATE", "127.0.0.1", port, "", "0", "5000", "KEYS", ...keys]);
      keysMoved += keys.length;
      batches++;
      if (options.pauseMs) await sleep(options.pauseMs);
    }
    const assign = (admin: NodeRedisClient) =>
      admin.sendCommand<unknown>(["CLUSTER", "SETSLOT", s, "NODE", ids[to]!]);
    await assign(target);
    await assign(source);
    await Promise.all(admins.filter((a) => a !== source && a !== target).map(assign));
    return { slot, from, to, keysMoved, batches };
  } finally {
    for (const admin of admins) admin.destroy();
  }
}

/** The index in `cluster.nodes` of the master that owns `slot`, as `admin` sees it. */
export async function ownerOf(
  admin: NodeRedisClient,
  cluster: RedisClusterProcess,
  slot: number,
): Promise<number> {
  const ranges = (await admin.sendCommand(["CLUSTER", "SLOTS"])) as [
    number,
    number,
    [string, number, ...unknown[]],
  ][];
  const range = ranges.find(([start, end]) => start <= slot && slot <= end);
  const index = cluster.nodes.findIndex((node) => node.port === Number(range?.[2][1]));
  if (index < 0) throw new TestkitError("redis-start", `no master owns slot ${slot}`);
  return index;
}
