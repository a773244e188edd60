import { closeAll, keyPrefix } from "@edgelock/testkit";
import fc from "fast-check";
import { afterAll, describe, expect } from "vitest";
import type { HeldLock, Lock, RedisInput } from "../src/index.ts";
import { lockKeys } from "../src/keys.ts";
import { LockModel } from "./model/lock-model.ts";
import { expectHoldOutcome, itOverBothTransports } from "./property-support.ts";
import { makeTestClient } from "./support.ts";

afterAll(closeAll);

const OWNERS = 3;
type Op =
  | { kind: "try"; owner: number }
  | { kind: "release"; pick: number }
  | { kind: "extend"; pick: number }
  | { kind: "expire" }
  | { kind: "inspect" };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .integer({ min: 0, max: OWNERS - 1 })
      .map((owner) => ({ kind: "try" as const, owner })),
  },
  { weight: 4, arbitrary: fc.nat().map((pick) => ({ kind: "release" as const, pick })) },
  { weight: 2, arbitrary: fc.nat().map((pick) => ({ kind: "extend" as const, pick })) },
  { weight: 1, arbitrary: fc.constant({ kind: "expire" as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: "inspect" as const }) },
);

async function runSequence(
  redis: RedisInput,
  raw: { del(key: string): Promise<unknown> },
  ops: Op[],
): Promise<void> {
  const prefix = keyPrefix();
  const { client } = makeTestClient(redis, { prefix });
  const handles: Lock[] = Array.from({ length: OWNERS }, () => client.lock("prop"));
  const model = new LockModel();
  const real: HeldLock[] = [];
  let maxFence = 0;
  for (const op of ops) {
    if (op.kind === "try") {
      const expected = model.tryAcquire(op.owner);
      const held = await handles[op.owner]!.tryAcquire({ leaseMs: 60_000 });
      expect(held === null ? "busy" : "held", `try by ${op.owner}`).toBe(
        expected === "busy" ? "busy" : "held",
      );
      if (held) {
        if (expected === "granted") expect(held.fence).toBeGreaterThan(maxFence);
        else expect(held.fence).toBe(maxFence);
        maxFence = Math.max(maxFence, held.fence);
        real.push(held);
      }
    } else if ((op.kind === "release" || op.kind === "extend") && real.length > 0) {
      const index = op.pick % real.length;
      const hold = model.holds[index]!;
      const expected = op.kind === "release" ? model.release(hold) : model.extend(hold);
      await expectHoldOutcome(op.kind, index, real[index]!, expected);
    } else if (op.kind === "expire") {
      model.expire();
      await raw.del(lockKeys(prefix, "prop").lock);
    } else if (op.kind === "inspect") {
      for (let owner = 0; owner < OWNERS; owner++) {
        expect(await handles[owner]!.holdCount(), `holdCount of ${owner}`).toBe(
          model.holdCount(owner),
        );
      }
      expect(await handles[0]!.isLocked()).toBe(model.owner !== null);
    }
  }
  expect(await handles[0]!.isLocked()).toBe(model.owner !== null);
}

describe("Lock against its reference model (fast-check)", () => {
  itOverBothTransports(
    "random acquire / release / extend / expire sequences from 3 owners",
    opArb,
    { tcp: { maxLength: 40, numRuns: 40 }, rest: { maxLength: 30, numRuns: 15 } },
    {
      tcp: (redis, ops) => runSequence(redis, { del: (k) => redis.del(k) }, ops),
      rest: (redis, ops) => runSequence(redis, { del: (k) => redis.del(k) }, ops),
    },
  );
});
