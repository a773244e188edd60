import { Redis } from "@upstash/redis";
import { closeAll, keyPrefix, makeNodeRedis, startStack, type Stack } from "@edgelock/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { justInTimeStrategy, type LeaseLostError } from "../src/index.ts";
import { sentinelKey } from "../src/keys.ts";
import { eventsOf, makeTestClient } from "./support.ts";

// Finding 3 of issue 13: a restart from an older snapshot keeps the restart quarantine's sentinel
// and loses the newest grants. The sentinel counts grants (its epoch); a client that saw a higher
// epoch than the restored one makes the next granting script quarantine, and is told (event
// `rolled-back`, its holds lost with reason `rolled-back`) instead of a second holder being granted.

const ROLLBACK_QUARANTINE = {
  quarantineMs: 8_000,
  leaseMs: 1_000,
  claimWindowMs: 1_000,
  requestTimeoutMs: 2_000,
  wait: justInTimeStrategy({ maxMs: 500 }),
} as const;
// A fixed lease (no keeper), so no renewal reaches the server between the snapshot and the check.
const LEASE_MS = 6_000;

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await closeAll();
  await stack.close();
});

const backends = {
  rest: () => Promise.resolve(new Redis({ url: stack.rest.url, token: stack.rest.token })),
  tcp: () => makeNodeRedis(stack.redis.url),
};

/** SAVE an RDB snapshot now (Redis's default persistence does this on a schedule). */
async function snapshot(): Promise<void> {
  const admin = await makeNodeRedis(stack.redis.url);
  try {
    expect(await admin.sendCommand(["SAVE"])).toBe("OK");
  } finally {
    admin.destroy();
  }
}

/** The grant epoch the restart quarantine's sentinel holds now ("<until ms>.<epoch>"). */
async function sentinelEpoch(prefix: string): Promise<number> {
  const admin = await makeNodeRedis(stack.redis.url);
  try {
    const raw = await admin.sendCommand(["GET", sentinelKey(prefix, "any", "prefix")]);
    const epoch = /^-?\d+\.(\d+)$/.exec(String(raw))?.[1];
    expect(epoch, `sentinel value ${String(raw)}`).toBeDefined();
    return Number(epoch);
  } finally {
    admin.destroy();
  }
}

/** A crash (SIGKILL) and a restart that loads the last snapshot: every write after it is gone. */
async function crashToSnapshot(): Promise<void> {
  await stack.redis.kill();
  await stack.redis.restart();
}

describe.sequential("rollback to an older snapshot", () => {
  for (const [backend, makeRedis] of Object.entries(backends)) {
    it(`${backend}: the next grant after a restart from an older RDB is refused and reported (rolled-back), holds lost`, async () => {
      const { client, events } = makeTestClient(await makeRedis(), {
        ...ROLLBACK_QUARANTINE,
        prefix: keyPrefix(),
      });
      expect(await client.initialize()).toMatchObject({ written: 1 });
      const kept = await client.lock("kept").acquire({ leaseMs: LEASE_MS });
      await snapshot();
      const snapshotEpoch = await sentinelEpoch(client.context.prefix);
      const lostGrant = await client.lock("lost").acquire({ leaseMs: LEASE_MS });
      expect(await sentinelEpoch(client.context.prefix)).toBeGreaterThan(snapshotEpoch);
      await crashToSnapshot();

      // "lost" is free in the restored data set; its holder has not noticed anything.
      expect(lostGrant.signal.aborted).toBe(false);
      const second = await client.lock("lost").tryAcquire({ leaseMs: LEASE_MS });
      expect(second).toBeNull(); // on main: granted, two holders of "lost"

      const reported = eventsOf(events, "rolled-back");
      expect(reported).toHaveLength(1);
      expect(reported[0]!.holdsLost).toBe(2);
      // the call that found the older data set, and the epoch it found there
      expect(reported[0]!.operation).toMatch(/"lost"/);
      expect(reported[0]!.foundEpoch).toBe(snapshotEpoch);
      const reasons = [lostGrant, kept].map((h) => (h.signal.reason as LeaseLostError).reason);
      expect(reasons).toEqual(["rolled-back", "rolled-back"]);
      expect(eventsOf(events, "lost").map((e) => e.reason)).toEqual(["rolled-back", "rolled-back"]);
      // The server quarantined: every client is refused, not just the one that remembered.
      const refused = eventsOf(events, "quarantined");
      expect(refused.length).toBeGreaterThan(0);
      expect(refused[0]!.remainingMs).toBeGreaterThan(ROLLBACK_QUARANTINE.quarantineMs - 2_000);
      const fresh = makeTestClient(await makeRedis(), {
        ...ROLLBACK_QUARANTINE,
        prefix: client.context.prefix,
      });
      expect(await fresh.client.lock("lost").tryAcquire({ leaseMs: LEASE_MS })).toBeNull();
      expect(eventsOf(fresh.events, "quarantined")).toHaveLength(1);
      // Once is enough: the quarantine moved the epoch past what any client saw, so the next
      // grant after it is not taken for a second rollback.
      expect(reported).toHaveLength(1);
    });
  }

  it("a grant that follows the quarantine after a rollback is not reported again, by either client, and its fence passes the lost one", async () => {
    const options = { ...ROLLBACK_QUARANTINE, quarantineMs: 2_500, prefix: keyPrefix() };
    const a = makeTestClient(await makeNodeRedis(stack.redis.url), options);
    const b = makeTestClient(await makeNodeRedis(stack.redis.url), options);
    await a.client.initialize();
    await snapshot();
    // Both saw epochs the snapshot lacks, b a higher one; a finds the rollback first.
    const lost = await a.client.lock("x").acquire({ leaseMs: 1_000 });
    await lost.release();
    await (await b.client.lock("y").acquire({ leaseMs: 1_000 })).release();
    await crashToSnapshot();
    expect(await a.client.lock("x").tryAcquire({ leaseMs: 1_000 })).toBeNull();
    expect(eventsOf(a.events, "rolled-back")).toHaveLength(1);
    const held = await b.client.lock("x").acquire({ leaseMs: 1_000, waitMs: 10_000 });
    expect(eventsOf(b.events, "rolled-back")).toEqual([]);
    // The fence counter went back with the data; the next fence still passes the lost one.
    expect(held.fence).toBeGreaterThan(lost.fence);
    await held.release();
  });

  it("counting grants costs no Redis command: with the quarantine on, a grant reads and writes the sentinel (GET, SET) and nothing more", async () => {
    const admin = await makeNodeRedis(stack.redis.url);
    const commands = async (options: object) => {
      const { client } = makeTestClient(await makeNodeRedis(stack.redis.url), {
        ...options,
        prefix: keyPrefix(),
      });
      await client.initialize();
      await (await client.lock("c").acquire({ leaseMs: 1_000 })).release(); // scripts loaded
      await admin.sendCommand(["CONFIG", "RESETSTAT"]);
      await (await client.lock("c").acquire({ leaseMs: 1_000 })).release();
      const info = String(await admin.sendCommand(["INFO", "commandstats"]));
      const counts = new Map<string, number>();
      for (const m of info.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm))
        if (!/^(info|config)/.test(m[1]!)) counts.set(m[1]!, Number(m[2]));
      return counts;
    };
    const off = await commands({});
    const on = await commands(ROLLBACK_QUARANTINE);
    const total = (c: Map<string, number>) => [...c.values()].reduce((a, b) => a + b, 0);
    expect(total(on) - total(off)).toBe(2);
    expect((on.get("get") ?? 0) - (off.get("get") ?? 0)).toBe(1);
    expect((on.get("set") ?? 0) - (off.get("set") ?? 0)).toBe(1);
    admin.destroy();
  });

  // The limits, stated in docs/guarantees.md: what remembers nothing detects nothing.
  it("a client made per request (as in a Worker) remembers no epoch: it is granted after a rollback", async () => {
    const options = { ...ROLLBACK_QUARANTINE, prefix: keyPrefix() };
    const first = makeTestClient(await makeNodeRedis(stack.redis.url), options);
    await first.client.initialize();
    await snapshot();
    const stale = await first.client.lock("w").acquire({ leaseMs: LEASE_MS });
    await crashToSnapshot();
    const perRequest = makeTestClient(await makeNodeRedis(stack.redis.url), options);
    const second = await perRequest.client.lock("w").tryAcquire({ leaseMs: LEASE_MS });
    expect(second).not.toBeNull(); // two holders: undetectable without a memory
    expect(stale.signal.aborted).toBe(false);
    expect(eventsOf(perRequest.events, "rolled-back")).toEqual([]);
    await second!.release();
  });

  it("with the quarantine off (the default), a rollback goes unnoticed", async () => {
    const { client, events } = makeTestClient(await makeNodeRedis(stack.redis.url), {
      prefix: keyPrefix(),
    });
    await snapshot();
    const stale = await client.lock("q").acquire({ leaseMs: LEASE_MS });
    await crashToSnapshot();
    const second = await client.lock("q").tryAcquire({ leaseMs: LEASE_MS });
    expect(second).not.toBeNull();
    expect(stale.signal.aborted).toBe(false);
    expect(eventsOf(events, "rolled-back")).toEqual([]);
    await second!.release();
  });
});
