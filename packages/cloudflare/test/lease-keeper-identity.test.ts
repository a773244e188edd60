import type { SerializedReadWriteLease } from "@edgelock/core";
import { keyPrefix } from "@edgelock/testkit";
import { describe, expect, it } from "vitest";
import { leaseObjectName } from "../src/index.ts";
import { keeper, probe } from "./workerd/support.ts";

// Which object keeps which hold (docs/lease-keepers.md, "What the keeper keeps").
describe.concurrent("LeaseKeeper: one object per hold", () => {
  it("a Lock's object is named as before the other kinds: SHA-256 of [prefix, name, owner, fence]", async () => {
    const held = await probe(keyPrefix()).lock("named").acquire({ leaseMs: 5_000 });
    const l = held.toJSON();
    const text = JSON.stringify([l.prefix, l.name, l.owner, l.fence]);
    const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
    const hex = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
    expect(await leaseObjectName(l)).toBe(hex);
    await held.release();
  });

  it("holds of different kinds or sides never share an object, even where every other field is equal", async () => {
    const held = await probe(keyPrefix()).readWriteLock("rw").write.acquire({ leaseMs: 5_000 });
    const write = held.toJSON() as SerializedReadWriteLease;
    const { side: _, ...fields } = write;
    const names = await Promise.all([
      leaseObjectName(write),
      leaseObjectName({ ...write, side: "read" as const }),
      leaseObjectName({ ...fields, kind: "lock" }),
      leaseObjectName({ ...fields, kind: "fair-lock" }),
    ]);
    expect(new Set(names).size).toBe(4);
    await held.release();
  });

  it("a write hold and a read hold of one owner on one name are kept side by side", async () => {
    const rw = probe(keyPrefix()).readWriteLock("rw");
    const write = (await rw.write.acquire({ leaseMs: 900 })).toJSON();
    const read = (await rw.read.acquire({ leaseMs: 900 })).toJSON(); // the writer may also read
    expect(read.owner).toBe(write.owner);
    const options = { maxHoldMs: 60_000, leaseMs: 900 };
    expect(await keeper().keep(write, options)).toMatchObject({ state: "kept", renewals: 1 });
    expect(await keeper().keep(read, options)).toMatchObject({ state: "kept", renewals: 1 });
    expect(await keeper().release(read)).toMatchObject({ state: "released" });
    expect(await keeper().release(write)).toMatchObject({ state: "released" });
    expect([await rw.read.isLocked(), await rw.write.isLocked()]).toEqual([false, false]);
  });
});
