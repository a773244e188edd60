import type { SerializedLease } from "@edgelock/core";
import { describe, expect, it } from "vitest";
import type { DurableObjectStorageLike } from "../src/cf-types.ts";
import { newRecord } from "../src/durable-object/record.ts";
import type { RedisOps, RenewOutcome } from "../src/durable-object/redis-ops.ts";
import { release } from "../src/durable-object/requests.ts";
import { leaseStore } from "../src/durable-object/store.ts";
import { tick } from "../src/durable-object/tick.ts";

// The race a real object can meet: its alarm's renewal is waiting on Redis when a release comes
// in (a Durable Object delivers new requests while an outbound fetch is pending). Driven here
// with a Redis stand-in whose answers the test releases, so both orders are exercised exactly.
const lease: SerializedLease = {
  v: 1,
  kind: "lock",
  prefix: "p",
  name: "n",
  owner: "owner-123456789",
  fence: 7,
  leaseMs: 600,
  expiresAt: Date.now() + 600,
};

function memoryStorage(): DurableObjectStorageLike & { alarm: number | null } {
  const data = new Map<string, unknown>();
  return {
    alarm: null,
    async get<T>(key: string) {
      return structuredClone(data.get(key)) as T | undefined;
    },
    async put(key, value) {
      data.set(key, structuredClone(value));
    },
    async setAlarm(at) {
      this.alarm = at;
    },
    async deleteAlarm() {
      this.alarm = null;
    },
    async getAlarm() {
      return this.alarm;
    },
  };
}

function gatedOps(renewAnswer: RenewOutcome) {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const ops: RedisOps = {
    renew: async () => {
      await gate;
      return renewAnswer;
    },
    release: async () => "released",
  };
  return { ops, open };
}

describe("LeaseKeeper: a release racing a renewal", () => {
  for (const [order, answer] of [
    ["release reached Redis first (the renewal finds the hold gone)", { kind: "gone" }],
    [
      "renewal reached Redis first (then the release frees it)",
      { kind: "renewed", expiresAt: Date.now() + 600 },
    ],
  ] as const) {
    it(`is reported as released when the ${order}`, async () => {
      const storage = memoryStorage();
      const store = leaseStore(storage);
      await store.put(
        newRecord(lease, { leaseMs: 600, maxHoldMs: 60_000, heartbeatMs: 0 }, Date.now() - 1),
      );
      const { ops, open } = gatedOps(answer);
      const renewing = tick(store, ops); // waits on "Redis"
      const released = await release(store, ops, lease);
      open();
      await renewing;
      expect(released.body).toMatchObject({ state: "released" });
      expect(await store.get()).toMatchObject({
        state: "released",
        reason: null,
        releasing: false,
        renewals: 0,
      });
      expect(storage.alarm).toBeNull();
    });
  }

  it("an alarm while the release talks to Redis leaves the verdict to the release", async () => {
    const storage = memoryStorage();
    const store = leaseStore(storage);
    await store.put(
      newRecord(lease, { leaseMs: 600, maxHoldMs: 60_000, heartbeatMs: 0 }, Date.now() - 1),
    );
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    let renewals = 0;
    const ops: RedisOps = {
      renew: async () => {
        renewals++;
        return { kind: "renewed", expiresAt: Date.now() + 600 };
      },
      release: async () => (await gate, "released"),
    };
    const releasing = release(store, ops, lease);
    await new Promise((resolve) => setTimeout(resolve, 0)); // as in an object: the next event comes after the release's storage writes
    await tick(store, ops); // fires while the release waits on Redis
    open();
    expect((await releasing).body).toMatchObject({ state: "released" });
    expect(renewals).toBe(0);
    expect(storage.alarm).toBeNull();
  });
});
