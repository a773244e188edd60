import type { RedisInput } from "../src/index.ts";
import { closeAll, keyPrefix } from "@edgelock/testkit";
import fc from "fast-check";
import { afterAll, describe, expect } from "vitest";
import { lockKeys } from "../src/keys.ts";
import { MultiLockModel } from "./model/multi-lock-model.ts";
import { expectHoldOutcome, itOverBothTransports } from "./property-support.ts";
import { makeTestClient } from "./support.ts";

afterAll(closeAll);

const OWNERS = 3;
// Two names alone, two sharing a tag: the attempts mix the Lock's scripts and the multi-key ones.
const NAMES = ["a", "b", "{t}:c", "{t}:d"] as const;
const owners = Array.from({ length: OWNERS }, (_, i) => `prop-owner-${i}-0123456789`);

type Op =
  | { kind: "multi"; owner: number; names: string[] }
  | { kind: "lock"; owner: number; name: string }
  | { kind: "release" | "extend"; pick: number }
  | { kind: "expire"; name: string }
  | { kind: "inspect" };

const nameArb = fc.constantFrom(...NAMES);
const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant("multi" as const),
      owner: fc.nat(OWNERS - 1),
      names: fc.uniqueArray(nameArb, { minLength: 1, maxLength: 4 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("lock" as const),
      owner: fc.nat(OWNERS - 1),
      name: nameArb,
    }),
  },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant("release" as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("extend" as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("expire" as const), name: nameArb }) },
  { weight: 1, arbitrary: fc.constant({ kind: "inspect" as const }) },
);

interface RealHold {
  fenceOf(name: string): number;
  release(): Promise<void>;
  extend(ms: number): Promise<void>;
}

async function runSequence(
  redis: RedisInput,
  del: (key: string) => Promise<unknown>,
  ops: Op[],
): Promise<void> {
  const prefix = keyPrefix();
  const { client } = makeTestClient(redis, { prefix });
  const model = new MultiLockModel();
  const real: RealHold[] = [];
  const lastFence = new Map<string, number>();
  const grant = async (owner: number, names: string[], take: () => Promise<RealHold | null>) => {
    const expected = model.tryAcquire(owner, names);
    const held = await take();
    expect(held === null ? "busy" : "granted", `${names.join(",")} by ${owner}`).toBe(
      expected.result,
    );
    if (!held || expected.result !== "granted") return;
    for (const name of names) {
      const fence = held.fenceOf(name);
      if (expected.fresh.has(name))
        expect(fence, `new fence of ${name}`).toBeGreaterThan(lastFence.get(name) ?? 0);
      else expect(fence, `re-entered fence of ${name}`).toBe(lastFence.get(name));
      lastFence.set(name, fence);
    }
    real.push(held);
  };
  for (const op of ops) {
    if (op.kind === "multi") {
      await grant(op.owner, op.names, () =>
        client.multiLock(op.names, { owner: owners[op.owner]! }).tryAcquire({ leaseMs: 60_000 }),
      );
    } else if (op.kind === "lock") {
      await grant(op.owner, [op.name], async () => {
        const held = await client
          .lock(op.name, { owner: owners[op.owner]! })
          .tryAcquire({ leaseMs: 60_000 });
        return (
          held && {
            fenceOf: () => held.fence,
            release: () => held.release(),
            extend: (ms) => held.extend(ms),
          }
        );
      });
    } else if ((op.kind === "release" || op.kind === "extend") && real.length > 0) {
      const index = op.pick % real.length;
      const hold = model.holds[index]!;
      const expected = op.kind === "release" ? model.release(hold) : model.extend(hold);
      await expectHoldOutcome(op.kind, index, real[index]!, expected);
    } else if (op.kind === "expire") {
      model.expire(op.name);
      await del(lockKeys(prefix, op.name).lock);
    } else if (op.kind === "inspect") {
      for (const name of NAMES) {
        for (let owner = 0; owner < OWNERS; owner++) {
          expect(
            await client.lock(name, { owner: owners[owner]! }).holdCount(),
            `holdCount(${name}, ${owner})`,
          ).toBe(model.holdCount(owner, name));
        }
      }
    }
  }
  for (const name of NAMES)
    expect(await client.lock(name).isLocked(), `${name} locked at the end`).toBe(
      model.locks.has(name),
    );
}

describe("MultiLock against its reference model (fast-check)", () => {
  itOverBothTransports(
    "random multi/plain acquires, releases, extends and expiries from 3 owners",
    opArb,
    { tcp: { maxLength: 35, numRuns: 30 }, rest: { maxLength: 25, numRuns: 10 } },
    {
      tcp: (redis, ops) => runSequence(redis, (k) => redis.del(k), ops),
      rest: (redis, ops) => runSequence(redis, (k) => redis.del(k), ops),
    },
  );
});
