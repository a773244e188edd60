import { closeAll, harness, keyPrefix, makeNodeRedis } from "@edgelock/testkit";
import { afterAll, describe, expect, it } from "vitest";
import { createClient, nodeRedisClusterBackend, type NodeRedisLike } from "../src/index.ts";
import { slotOfKey } from "../src/cluster-slot.ts";
import { clockFor, ServerClocks } from "../src/engine/server-clocks.ts";
import { lockKeys } from "../src/keys.ts";

afterAll(closeAll);

const HOUR = 3_600_000;

describe("ServerClocks: one server-time estimate per clock", () => {
  it("two nodes keep two estimates, apart from the single server's; an unknown answerer feeds none", () => {
    const clocks = new ServerClocks(() => 1_000_000, 500);
    const t = performance.now();
    clocks.observe("10.0.0.1:7000", 2_000_000, t, t);
    clocks.observe("10.0.0.2:7000", 2_000_000 + HOUR, t, t);
    const a = clocks.of("10.0.0.1:7000");
    const b = clocks.of("10.0.0.2:7000");
    expect(a).not.toBe(b);
    expect(clocks.nodes).toBe(2);
    expect(a.lower(t)).toBe(2_000_000);
    expect(b.lower(t)).toBe(2_000_000 + HOUR);
    // the single server's estimate learned nothing: still the wall clock ∓ the error bound
    expect(clocks.of(undefined).known).toBe(false);
    expect(clocks.of(undefined).upper()).toBeLessThanOrEqual(1_000_500);
    // a redirected answer's server time belongs to no estimate
    clocks.observe(null, 9_000_000, t, t);
    expect(a.lower(t)).toBe(2_000_000);
    expect(b.lower(t)).toBe(2_000_000 + HOUR);
    expect(clocks.of(undefined).known).toBe(false);
    expect(clocks.nodes).toBe(2);
  });

  it("clockFor picks the estimate of the node the backend says serves the key", () => {
    const clocks = new ServerClocks(Date.now, 100);
    const nodeOf = (key: string) => (key.startsWith("a") ? "A" : "B");
    const backend = { kind: "tcp" as const, command: () => Promise.resolve(null), nodeOf };
    expect(clockFor({ backend, clocks }, "a:1")).toBe(clocks.of("A"));
    expect(clockFor({ backend, clocks }, "b:1")).toBe(clocks.of("B"));
    const single = { kind: "tcp" as const, command: () => Promise.resolve(null) };
    expect(clockFor({ backend: single, clocks }, "a:1")).toBe(clocks.of(undefined));
  });
});

/**
 * A two-master cluster as the node-redis cluster backend sees it, over one real redis-server:
 * slots below 8192 on node A, the rest on node B, whose clock reads an hour ahead (its replies'
 * server time, the last element of every script reply, is moved by an hour: a skew no real
 * redis-server can be given without libfaketime). Node A can be told to answer MOVED to B once,
 * as when a slot has just moved: node-redis' own routing then sends the command on to B.
 */
async function twoNodeCluster() {
  const real = await makeNodeRedis(harness().redisUrl);
  const skewed = (reply: unknown): unknown =>
    Array.isArray(reply) && typeof reply.at(-1) === "number"
      ? [...reply.slice(0, -1), (reply.at(-1) as number) + HOUR]
      : reply;
  const A = { address: "node-a:7000" };
  const B = { address: "node-b:7000" };
  let movedOnce = false;
  const clientA: NodeRedisLike = {
    sendCommand: async (args: string[]) => {
      if (movedOnce && args[0] === "EVALSHA") {
        movedOnce = false;
        throw new Error(`MOVED ${slotOfKey(args[3]!)} ${B.address}`);
      }
      return real.sendCommand(args);
    },
  } as NodeRedisLike;
  const clientB: NodeRedisLike = {
    sendCommand: async (args: string[]) => skewed(await real.sendCommand(args)),
  } as NodeRedisLike;
  const slots = Array.from({ length: 16_384 }, (_, slot) => ({ master: slot < 8_192 ? A : B }));
  const cluster = {
    masters: [A, B],
    slots,
    nodeClient: (node: { address: string }) =>
      Promise.resolve(node.address === A.address ? clientA : clientB),
    // node-redis' routing after a MOVED: the slot's new owner is B
    sendCommand: (_key: string | undefined, _ro: boolean | undefined, args: string[]) =>
      clientB.sendCommand(args),
  };
  return {
    backend: nodeRedisClusterBackend(cluster as never),
    A: A.address,
    B: B.address,
    moveNextToB: () => (movedOnce = true),
  };
}

/** A lock name whose keys hash to a slot on node A (`onA`) or on node B. */
function nameOn(prefix: string, onA: boolean): string {
  for (let i = 0; ; i++) {
    const name = `clock-${i}`;
    if (slotOfKey(lockKeys(prefix, name).lock) < 8_192 === onA) return name;
  }
}

describe("Per-node server clocks on the node-redis cluster backend", () => {
  it("each node's replies feed that node's estimate only; a MOVED re-route feeds none", async () => {
    const { backend, A, B, moveNextToB } = await twoNodeCluster();
    const prefix = keyPrefix();
    const client = createClient({ redis: backend, prefix });
    const { clocks } = client.context;
    const onA = client.lock(nameOn(prefix, true));
    const onB = client.lock(nameOn(prefix, false));
    const before = Date.now();

    await (await onA.acquire({ leaseMs: 10_000 })).release();
    await (await onB.acquire({ leaseMs: 10_000 })).release();
    expect(clocks.nodes).toBe(2);
    // A reads about now; B an hour ahead: two estimates, neither dragged to the other
    expect(clocks.of(A).lower()).toBeGreaterThanOrEqual(before - 1_000);
    expect(clocks.of(A).upper()).toBeLessThan(Date.now() + 60_000);
    expect(clocks.of(B).lower()).toBeGreaterThanOrEqual(before + HOUR - 1_000);
    expect(clocks.of(B).upper()).toBeLessThan(Date.now() + HOUR + 60_000);
    // nothing was attributed to a single-server clock
    expect(clocks.of(undefined).known).toBe(false);

    // The slot map still says A, but the command is answered by B (an hour ahead) after a
    // MOVED: its server time must not land in A's estimate.
    // (Read before the release: its reply, from A itself, would set A's estimate right again.)
    moveNextToB();
    const held = await onA.acquire({ leaseMs: 10_000 });
    expect(clocks.of(A).upper()).toBeLessThan(Date.now() + 60_000);
    await held.release();
    // and A's estimate still judges A's deadlines: a call on A is sent with a deadline near now
    expect(clockFor(client.context, lockKeys(prefix, onA.name).lock)).toBe(clocks.of(A));
  });
});
