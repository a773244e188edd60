import { makeNodeRedis, type RedisClusterProcess } from "@edgelock/testkit";
import { describe, expect, it } from "vitest";
import { resolveBackend, type Backend, type RedisInput } from "../../src/index.ts";

/**
 * Replies that say a request spanned slots: CROSSSLOT for declared keys, and the script errors
 * Redis raises when a script touches an undeclared key of another slot or node.
 */
const SLOT_ERROR = /CROSSSLOT|do not hash to the same slot|non local key/i;

/** Counts the slot errors every wrapped backend saw (client side, both transports). */
export class SlotErrorTally {
  count = 0;
  readonly samples: string[] = [];

  /** `redis` as the engine would resolve it, with every error reply checked on the way. */
  wrap(redis: RedisInput): Backend {
    const inner = resolveBackend(redis);
    const tallied = async <T>(args: readonly (string | number)[], send: () => Promise<T>) => {
      try {
        return await send();
      } catch (error) {
        if (SLOT_ERROR.test(String((error as Error)?.message))) {
          this.count++;
          if (this.samples.length < 5)
            this.samples.push(`${String(args[0])}: ${(error as Error).message}`);
        }
        throw error;
      }
    };
    const command: Backend["command"] = (args, signal) =>
      tallied(args, () => inner.command(args, signal));
    // Push (REST's SSE) and the cluster's node routing (one server clock per node) pass through,
    // so the engine behaves as it does unwrapped.
    return {
      kind: inner.kind,
      command,
      ...(inner.subscribe ? { subscribe: inner.subscribe.bind(inner) } : {}),
      ...(inner.nodeOf ? { nodeOf: inner.nodeOf.bind(inner) } : {}),
      ...(inner.commandAt
        ? {
            commandAt: (args: readonly (string | number)[], signal: AbortSignal) =>
              tallied(args, () => inner.commandAt!(args, signal)),
          }
        : {}),
    };
  }
}

/** Errors of one kind every node of the cluster answered since it started (Redis' INFO errorstats). */
export async function errorStat(cluster: RedisClusterProcess, prefix: string): Promise<number> {
  let total = 0;
  for (const url of cluster.urls) {
    const client = await makeNodeRedis(url);
    const info = String(await client.sendCommand(["INFO", "errorstats"]));
    total += Number(new RegExp(`^errorstat_${prefix}:count=(\\d+)`, "m").exec(info)?.[1] ?? 0);
    client.destroy();
  }
  return total;
}

/**
 * Last in a file: no request of the suites before it spanned slots, by the client-side tally and
 * by every node's own count; then a control request that does span slots is seen by both, so a
 * 0 means none happened rather than none could be seen.
 */
export function declareSlotAudit(
  label: string,
  tally: SlotErrorTally,
  cluster: () => RedisClusterProcess,
  makeRedis: () => Promise<RedisInput> | RedisInput,
): void {
  describe(`${label}: slots`, () => {
    it("no request of any suite spanned slots (0 CROSSSLOT, client side and in every node's errorstats)", async () => {
      expect(tally.samples).toEqual([]);
      expect(tally.count).toBe(0);
      expect(await errorStat(cluster(), "CROSSSLOT")).toBe(0);
    });

    it("control: a script whose keys span slots is refused with CROSSSLOT, and counted by both", async () => {
      const backend = tally.wrap(await makeRedis());
      const spanning = backend.command(
        ["EVAL", "return 1", 2, "{a}:x", "{b}:y"],
        new AbortController().signal,
      );
      await expect(spanning).rejects.toThrow(/CROSSSLOT/);
      expect(tally.count).toBe(1);
      expect(await errorStat(cluster(), "CROSSSLOT")).toBe(1);
    });
  });
}
