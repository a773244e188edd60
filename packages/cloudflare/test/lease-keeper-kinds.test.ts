import { keyPrefix } from "@edgelock/testkit";
import { runDurableObjectAlarm, env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { leaseObjectName } from "../src/index.ts";
import {
  acquireInWorker,
  heldOnServerFor,
  keptRecord,
  LEASE_MS,
  renewElsewhere,
} from "./workerd/keeper-kind-case.ts";
import { KEPT_KINDS, serverHolders, serverRemainingMs, versionsOf } from "./workerd/kept-kinds.ts";
import { aborted, eventually, keeper, probe } from "./workerd/support.ts";
import { workerdRedis } from "./workerd/upstash.ts";

// The Durable Object keeper keeps every leased kind (docs/lease-keepers.md, "What the keeper
// keeps"): one case per kind, each through the real path — a Worker's waitUntil keeper hands
// the hold over, the invocation ends, the object renews through client.resumeHold().
describe.concurrent.each(KEPT_KINDS)("LeaseKeeper keeps a $kind hold", (k) => {
  it("handed over by a Worker, renewed past four leases, adopting another renewer's version, released", async () => {
    const prefix = keyPrefix();
    const p = probe(prefix);
    const { held, hold, events } = await acquireInWorker(k, prefix, "kept");
    expect(hold.kind).toBe(k.kind.split(" ")[0]);
    expect(events).toMatchObject([{ type: "handed-off", status: { state: "kept" } }]);

    // The invocation is over: only the keeper renews. Four leases of looks at the server.
    const looks = await heldOnServerFor(p, k, "kept", hold, 4 * LEASE_MS);
    // The Worker's own hold can no longer confirm the lease, and says where it went.
    expect(await aborted(held.signal, 5_000)).toMatchObject({ reason: "taken-over" });
    const kept = await keeper().status(hold);
    expect(kept.state).toBe("kept");
    expect(kept.renewals).toBeGreaterThanOrEqual(4);
    expect(kept).toMatchObject(
      hold.kind === "multi-lock"
        ? { names: hold.names, fences: hold.fences }
        : { name: hold.name, fence: hold.fence },
    );

    // Another renewer of the same lease moves its version on the server: the keeper's next
    // renewal learns it from the stale answer, goes again with it, and stores it — not a loss.
    const elsewhere = versionsOf(await renewElsewhere(p, hold));
    await eventually(
      async () => {
        const rec = await keptRecord(hold);
        const mine = rec ? versionsOf(rec.lease) : [];
        return mine.length > 0 && mine.every((v, i) => v > elsewhere[i]!);
      },
      3_000,
      `the keeper renewed past the other renewer's version(s) ${elsewhere.join(",")}`,
    );
    expect(await keeper().status(hold)).toMatchObject({ state: "kept" });
    expect(await serverRemainingMs(p, k, "kept", hold)).toBeGreaterThan(0);

    const released = await keeper().release(hold);
    expect(released.state).toBe("released");
    expect(await serverHolders(p, k, "kept")).toBe(0);
    const stub = env.LEASE_KEEPER.get(env.LEASE_KEEPER.idFromName(await leaseObjectName(hold)));
    expect(await runDurableObjectAlarm(stub)).toBe(false); // nothing left to renew
    console.info(
      `[DO keeper, ${k.kind}] lease ${LEASE_MS} ms: ${released.renewals} renewals, ${looks} looks at the server`,
    );
  });

  it("a hold deleted at the server is reported lost, never kept", async () => {
    const prefix = keyPrefix();
    const held = await k.acquire(probe(prefix), "lost", { leaseMs: LEASE_MS });
    const hold = held.toJSON();
    const first = await keeper().keep(hold, { maxHoldMs: 60_000, leaseMs: LEASE_MS });
    expect(first).toMatchObject({ state: "kept", renewals: 1 });
    const redis = workerdRedis();
    const keys = await redis.keys(`${prefix}:*`);
    expect(keys.length).toBeGreaterThan(0);
    await redis.del(...keys);
    await eventually(
      async () => (await keeper().status(hold)).state !== "kept",
      3_000,
      "keeper noticed",
    );
    expect(await keeper().heartbeat(hold)).toMatchObject({ state: "lost", reason: "gone" });
  });
});
