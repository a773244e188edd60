import { createClient, InvalidArgumentError, quorumLock, type Keeper } from "@edgelock/core";
import { keyPrefix } from "@edgelock/testkit";
import {
  createExecutionContext,
  env,
  runInDurableObject,
  waitOnExecutionContext,
} from "cloudflare:test";
import { describe, expect, it } from "vitest";
import {
  bindingTransport,
  leaseKeeperClient,
  waitUntilKeeper,
  type KeepableHold,
  type KeeperEvent,
} from "../src/index.ts";
import { aborted, keeper, probe } from "./workerd/support.ts";
import { workerdRedis } from "./workerd/upstash.ts";

// What the Durable Object keeper cannot keep is refused at its door, by `lease.kind` and why —
// by the client before any request, and by the object itself — and never answered "kept".
// Each database's request may take up to 400 ms on this loaded machine (default: lease / 10).
const QUORUM = { requestTimeoutMs: 400 };
const quorumClients = (first?: Keeper) =>
  [keyPrefix(), keyPrefix(), keyPrefix()].map((prefix, i) =>
    createClient({
      redis: workerdRedis(),
      prefix,
      leaseMs: 900,
      ...(i === 0 && first && { keeper: first }),
    }),
  );

async function refusedHolds(): Promise<Record<string, unknown>> {
  const quorum = await quorumLock(quorumClients(), "q", QUORUM).acquire({ leaseMs: 5_000 });
  const semaphore = probe(keyPrefix()).semaphore("s");
  await semaphore.trySetPermits(1);
  return {
    "quorum-lock": quorum.toJSON(),
    semaphore: (await semaphore.acquire()).toJSON(),
    "count-down-latch": { v: 1, kind: "count-down-latch", prefix: "p", name: "l" },
  };
}

/** The object asked directly, as a caller that skipped the client's check would. */
async function askObject(lease: unknown) {
  const stub = env.LEASE_KEEPER.get(env.LEASE_KEEPER.idFromName(keyPrefix()));
  const response = await stub.fetch(`https://lease-keeper/v1/leases/${"0".repeat(64)}/keep`, {
    method: "POST",
    headers: { authorization: `Bearer ${env.EDGELOCK_KEEPER_SECRET}` },
    body: JSON.stringify({ lease, maxHoldMs: 60_000, leaseMs: 900 }),
  });
  const stored = await runInDurableObject(stub, async (_, state) => ({
    record: await state.storage.get("lease"),
    alarm: await state.storage.getAlarm(),
  }));
  return { status: response.status, body: (await response.json()) as { error?: string }, stored };
}

describe.concurrent("LeaseKeeper refuses what it cannot keep", () => {
  it("quorum-lock, semaphore and latch holds: InvalidArgumentError naming lease.kind, from the client and from the object", async () => {
    const why = {
      "quorum-lock": /several databases/,
      semaphore: /no lease to renew/,
      "count-down-latch": /no hold and no lease/,
    };
    for (const [kind, hold] of Object.entries(await refusedHolds())) {
      const sent: string[] = [];
      const counted = leaseKeeperClient({
        send: (object, op, body, signal) => (
          sent.push(op),
          bindingTransport(env.LEASE_KEEPER, env.EDGELOCK_KEEPER_SECRET).send(
            object,
            op,
            body,
            signal,
          )
        ),
      });
      const lease = hold as KeepableHold;
      for (const call of [
        () => counted.keep(lease, { maxHoldMs: 60_000 }),
        () => counted.heartbeat(lease),
        () => counted.status(lease),
        () => counted.release(lease),
        () => keeper().keep(lease, { maxHoldMs: 60_000 }),
      ]) {
        const error = await call().catch((e: unknown) => e);
        expect(error, kind).toBeInstanceOf(InvalidArgumentError);
        expect(error, kind).toMatchObject({ argument: "lease.kind" });
        expect((error as Error).message, kind).toMatch(why[kind as keyof typeof why]);
      }
      expect(sent, `${kind}: requests sent`).toEqual([]);
      const direct = await askObject(hold);
      expect(direct.status, kind).toBe(400);
      expect(direct.body.error, kind).toMatch(/^lease\.kind: /);
      expect(direct.stored, kind).toEqual({ record: undefined, alarm: null });
    }
  });

  it("a kept kind with a malformed field, or one resumeHold refuses, is refused by the object, naming the field", async () => {
    const held = await probe(keyPrefix()).multiLock(["a", "b"]).acquire({ leaseMs: 5_000 });
    const hold = held.toJSON();
    const malformed = await askObject({ ...hold, fences: [1] });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error).toMatch(/^lease\.fences: /);
    expect(malformed.stored).toEqual({ record: undefined, alarm: null });
    // Well-formed, but not in the order the multi-lock takes its names: it could never be renewed.
    const names = [...hold.names].reverse();
    const unresumable = await askObject({ ...hold, names, fences: [...hold.fences].reverse() });
    expect(unresumable.status).toBe(400);
    expect(unresumable.body.error).toMatch(/^lease\.names: /);
    expect(unresumable.stored).toEqual({ record: undefined, alarm: null });
    // A prefix no client can be made with (braces would change the hash tag).
    const braced = await askObject({ ...hold, prefix: "a{b}" });
    expect([braced.status, braced.body.error]).toEqual([
      400,
      expect.stringMatching(/^lease\.prefix: /),
    ]);
    expect(braced.stored).toEqual({ record: undefined, alarm: null });
    await held.release();
  });

  it("a quorum lock kept by a Worker's waitUntil keeper: the hand-over fails by lease.kind, the lease runs out, the signal says so", async () => {
    const ctx = createExecutionContext();
    const events: KeeperEvent[] = [];
    const first = waitUntilKeeper({
      waitUntil: ctx,
      budgetMs: 1_200,
      marginMs: 300,
      onEvent: (e) => events.push(e),
      handoff: { keeper: keeper(), maxHoldMs: 60_000, leaseMs: 900 },
    });
    const held = await quorumLock(quorumClients(first), "q", QUORUM).acquire();
    await waitOnExecutionContext(ctx);
    expect(events.map((e) => e.type)).toEqual(["handoff-failed"]);
    expect(events[0]).toMatchObject({ error: { argument: "lease.kind" } });
    expect(await aborted(held.signal, 5_000)).toMatchObject({ reason: "deadline" });
  });
});
