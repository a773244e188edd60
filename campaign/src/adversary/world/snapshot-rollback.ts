import { makeNodeRedis, type RedisProcess } from "@edgelock/testkit";

/**
 * A partial data loss as Redis's default persistence makes it: `takeSnapshot()` writes an RDB
 * (`SAVE`, what a `save` schedule does in the background), the run goes on, and
 * `rollbackToSnapshot()` crashes the server (SIGKILL) and restarts it from that RDB, so every
 * write after the snapshot is gone while the older ones — the restart quarantine's sentinel among
 * them — survive. The same shape as AOF `everysec` losing its last second, a restore from backup,
 * or a failover to a replica that lagged.
 *
 * Needs a server without an append-only file (`startRedis()`/`startStack()` without
 * `persistence`): with one, Redis restarts from the AOF and nothing is rolled back.
 */
export interface SnapshotRollback {
  /** Writes the snapshot a later rollback returns to. */
  takeSnapshot(): Promise<void>;
  /** SIGKILL and restart from the last snapshot; resolves once the server answers again. */
  rollbackToSnapshot(): Promise<void>;
  /** Snapshots taken and rollbacks done so far. */
  readonly snapshots: number;
  readonly rollbacks: number;
}

export function snapshotRollback(redis: RedisProcess): SnapshotRollback {
  if (redis.persistence)
    throw new Error(
      "snapshotRollback needs a redis-server without an append-only file: it would restart from the AOF",
    );
  let snapshots = 0;
  let rollbacks = 0;
  return {
    get snapshots() {
      return snapshots;
    },
    get rollbacks() {
      return rollbacks;
    },
    async takeSnapshot() {
      const admin = await makeNodeRedis(redis.url);
      try {
        const reply = await admin.sendCommand(["SAVE"]);
        if (String(reply) !== "OK") throw new Error(`SAVE answered ${String(reply)}`);
        snapshots++;
      } finally {
        admin.destroy();
      }
    },
    async rollbackToSnapshot() {
      if (snapshots === 0)
        throw new Error("rollbackToSnapshot before any takeSnapshot: that would be a total loss");
      await redis.kill();
      await redis.restart();
      rollbacks++;
    },
  };
}
