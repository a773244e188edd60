import { keyPrefix } from "@edgelock/testkit";
import { describe, expect, expectTypeOf, it } from "vitest";
import {
  InvalidArgumentError,
  parseSerializedHold,
  type HeldLock,
  type HeldMultiLock,
  type Permit,
  type RedisInput,
  type SemaphoreHold,
  type SerializedHold,
} from "../../src/index.ts";
import { makeTestClient } from "../support.ts";

export interface SerializedHoldTarget {
  readonly name: string;
  makeRedis(): RedisInput | Promise<RedisInput>;
}

/** What a hold looks like once it went through a job queue: JSON text and back. */
const overTheWire = <T>(held: { toJSON(): T }): T => JSON.parse(JSON.stringify(held)) as T;

const argumentOf = (fn: () => unknown): string | null => {
  try {
    fn();
    return null;
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidArgumentError);
    return (error as InvalidArgumentError).argument;
  }
};

/**
 * Every kind of hold serialises to one union (`SerializedHold`) and resumes through one path,
 * `client.resumeHold()`, in another client (another invocation): the resumed hold is the right
 * type, acts on the same server state, and a malformed hold is refused naming the field.
 */
export function runSerializedHoldConformance(target: SerializedHoldTarget): void {
  describe(`Serialized holds and resumeHold(): ${target.name}`, () => {
    /** Two clients on one prefix: the one that acquires, and the "other invocation" that resumes. */
    const make = async () => {
      const prefix = keyPrefix();
      const first = makeTestClient(await target.makeRedis(), { prefix }).client;
      const resumer = makeTestClient(await target.makeRedis(), { prefix });
      return { first, other: resumer.client, requests: resumer.requests, prefix };
    };

    it("a Lock, a FairLock and both read-write sides round-trip through JSON into resumeHold", async () => {
      const { first, other } = await make();
      const holds = [
        await first.lock("l").acquire({ leaseMs: 5_000 }),
        await first.fairLock("f").acquire({ leaseMs: 5_000 }),
        await first.readWriteLock("r").read.acquire({ leaseMs: 5_000 }),
        await first.readWriteLock("w").write.acquire({ leaseMs: 5_000 }),
      ];
      const kinds = [];
      for (const held of holds) {
        const json = overTheWire(held);
        kinds.push("side" in json ? `${json.kind}:${json.side}` : json.kind);
        const resumed = other.resumeHold(json);
        expectTypeOf(resumed).toEqualTypeOf<HeldLock>();
        expect(resumed.fence).toBe(held.fence);
        expect(resumed.name).toBe(held.name);
        await resumed.extend(7_000);
        await resumed.release();
      }
      expect(kinds).toEqual(["lock", "fair-lock", "read-write-lock:read", "read-write-lock:write"]);
      expect(await first.lock("l").isLocked()).toBe(false);
      expect(await first.fairLock("f").isLocked()).toBe(false);
      expect(await first.readWriteLock("r").read.isLocked()).toBe(false);
      expect(await first.readWriteLock("w").write.isLocked()).toBe(false);
    });

    it("a MultiLock over two hash tags round-trips, with each lock's lease version", async () => {
      const { first, other } = await make();
      const names = ["{t}:a", "{t}:b", "solo"];
      const held = await first.multiLock(names).acquire({ leaseMs: 5_000 });
      const json = overTheWire(held);
      expect(json.kind).toBe("multi-lock");
      expect(json.versions).toHaveLength(3);
      const resumed = other.resumeHold(json);
      expectTypeOf(resumed).toEqualTypeOf<HeldMultiLock>();
      expect(resumed.fences).toEqual(held.fences);
      await resumed.extend(7_000);
      // the renewal was ordered by the carried versions: confirmed at once, never stale
      expect(resumed.signal.aborted).toBe(false);
      for (const name of names)
        expect(await first.lock(name).remainingMs(), name).toBeGreaterThan(5_000);
      await resumed.release();
      for (const name of names) expect(await first.lock(name).isLocked(), name).toBe(false);
    });

    it("a Semaphore hold and a PermitExpirableSemaphore permit round-trip", async () => {
      const { first, other } = await make();
      const sem = first.semaphore("s");
      await sem.trySetPermits(3);
      const taken = await sem.acquire({ permits: 2 });
      const semJson = overTheWire(taken);
      expect(semJson.kind).toBe("semaphore");
      const resumedSem = other.resumeHold(semJson);
      expectTypeOf(resumedSem).toEqualTypeOf<SemaphoreHold>();
      await resumedSem.release();
      expect(await sem.availablePermits()).toBe(3);

      const pes = first.permitExpirableSemaphore("p");
      await pes.trySetPermits(1);
      const permit = await pes.acquire({ leaseMs: 5_000 });
      const permitJson = overTheWire(permit);
      expect(permitJson.kind).toBe("permit-expirable-semaphore");
      const resumedPermit = other.resumeHold(permitJson);
      expectTypeOf(resumedPermit).toEqualTypeOf<Permit>();
      expect(resumedPermit.id).toBe(permit.id);
      await resumedPermit.extend(7_000);
      await resumedPermit.release();
      expect(await pes.availablePermits()).toBe(1);
    });

    it("a hold typed only as SerializedHold resumes as the union of held types", async () => {
      const { first, other } = await make();
      const stored: SerializedHold = overTheWire(
        await first.lock("any").acquire({ leaseMs: 5_000 }),
      );
      const resumed = other.resumeHold(stored);
      await resumed.release();
      expect(await first.lock("any").isLocked()).toBe(false);
    });

    it("holds serialised with the old kind names (read-lock, write-lock, permit) still resume", async () => {
      const { first, other } = await make();
      const read = await first.readWriteLock("old").read.acquire({ leaseMs: 5_000 });
      const { side: _side, ...readJson } = JSON.parse(JSON.stringify(read)) as Record<
        string,
        unknown
      >;
      const legacyRead = { ...readJson, kind: "read-lock" } as unknown as SerializedHold;
      await other.resumeHold(legacyRead).release();
      expect(await first.readWriteLock("old").read.isLocked()).toBe(false);
      // and on the handle's own resume(), which is the same code
      const write = await first.readWriteLock("old").write.acquire({ leaseMs: 5_000 });
      const { side: _w, ...writeJson } = JSON.parse(JSON.stringify(write)) as Record<
        string,
        unknown
      >;
      const legacyWrite = { ...writeJson, kind: "write-lock" } as never;
      await first.readWriteLock("old").write.resume(legacyWrite).release();
      expect(await first.readWriteLock("old").write.isLocked()).toBe(false);
      const pes = first.permitExpirableSemaphore("old-p");
      await pes.trySetPermits(1);
      const permit = overTheWire(await pes.acquire({ leaseMs: 5_000 }));
      await other.resumeHold({ ...permit, kind: "permit" } as never as SerializedHold).release();
      expect(await pes.availablePermits()).toBe(1);
    });

    it("a quorum-lock hold is sent to its quorum lock; a hold of another prefix is refused", async () => {
      const { first, other, prefix } = await make();
      const quorum = {
        v: 1,
        kind: "quorum-lock",
        name: "q",
        prefixes: [prefix, `${prefix}-b`, `${prefix}-c`],
        token: "token-of-the-quorum-hold",
        fence: 1,
        leaseMs: 5_000,
        expiresAt: Date.now() + 5_000,
      } as const;
      expect(argumentOf(() => other.resumeHold(quorum))).toBe("hold.kind");
      const json = overTheWire(await first.lock("pfx").acquire({ leaseMs: 5_000 }));
      expect(argumentOf(() => other.resumeHold({ ...json, prefix: `${prefix}-other` }))).toBe(
        "hold.prefix",
      );
      // on a handle, a hold of another kind, side or name is refused too
      expect(argumentOf(() => other.fairLock("pfx").resume(json as never))).toBe("lease.kind");
      expect(argumentOf(() => other.lock("other-name").resume(json))).toBe("lease.name");
      await other.resumeHold(json).release();
    });

    it("a malformed hold is refused, naming the field, before any request", async () => {
      const { first, other, requests } = await make();
      const lock = overTheWire(await first.lock("m").acquire({ leaseMs: 5_000 }));
      const multi = overTheWire(await first.multiLock(["{m}:a", "{m}:b"]).acquire());
      const sem = first.semaphore("ms");
      await sem.trySetPermits(1);
      const semHold = overTheWire(await sem.acquire());
      const pes = first.permitExpirableSemaphore("mp");
      await pes.trySetPermits(1);
      const permit = overTheWire(await pes.acquire({ leaseMs: 5_000 }));
      const rw = overTheWire(await first.readWriteLock("mrw").read.acquire({ leaseMs: 5_000 }));
      const cases: [unknown, string][] = [
        [null, "hold"],
        ["{}", "hold"],
        [[lock], "hold"],
        [{ ...lock, v: 2 }, "hold.v"],
        [{ ...lock, kind: "mutex" }, "hold.kind"],
        [{ ...lock, prefix: 7 }, "hold.prefix"],
        [{ ...lock, name: "" }, "hold.name"],
        [{ ...lock, name: "x\uD800" }, "hold.name"],
        [{ ...lock, owner: undefined }, "hold.owner"],
        [{ ...lock, fence: "3" }, "hold.fence"],
        [{ ...lock, fence: 1.5 }, "hold.fence"],
        [{ ...lock, leaseMs: 0 }, "hold.leaseMs"],
        [{ ...lock, expiresAt: Number.NaN }, "hold.expiresAt"],
        [{ ...lock, expiresAt: null }, "hold.expiresAt"],
        [{ ...lock, version: -1 }, "hold.version"],
        [{ ...rw, side: "both" }, "hold.side"],
        [{ ...multi, names: [] }, "hold.names"],
        [{ ...multi, names: ["{m}:a", 4] }, "hold.names[1]"],
        [{ ...multi, fences: [1] }, "hold.fences"],
        [{ ...multi, fences: [1, -2] }, "hold.fences[1]"],
        [{ ...multi, versions: [0, "1"] }, "hold.versions[1]"],
        [{ ...multi, names: ["{m}:b", "{m}:a"] }, "hold.names"],
        [{ ...semHold, permits: 0 }, "hold.permits"],
        [{ ...semHold, releaseOp: "" }, "hold.releaseOp"],
        [{ ...permit, id: 42 }, "hold.id"],
        [{ ...permit, leaseMs: -5 }, "hold.leaseMs"],
        [{ v: 1, kind: "quorum-lock", name: "q", prefixes: [] }, "hold.prefixes"],
        [{ v: 1, kind: "quorum-lock", name: "q", prefixes: ["a"], token: "" }, "hold.token"],
      ];
      const before = requests.total;
      for (const [value, field] of cases) {
        expect(
          argumentOf(() => other.resumeHold(value as SerializedHold)),
          field,
        ).toBe(field);
        // the same validator, on its own, for code that only stores holds
        if (field !== "hold.names" || (value as { names: unknown[] }).names.length === 0)
          expect(
            argumentOf(() => parseSerializedHold(value)),
            field,
          ).toBe(field);
      }
      expect(requests.total).toBe(before);
      // none of them touched the holds
      expect(await first.lock("m").isLocked()).toBe(true);
      expect(await pes.availablePermits()).toBe(0);
    });
  });
}
