import type { RedisInput } from "../src/index.ts";
import { closeAll, keyPrefix } from "@edgelock/testkit";
import fc from "fast-check";
import { afterAll, describe, expect } from "vitest";
import { latchKeys } from "../src/keys.ts";
import { runCountDown, type LatchRef } from "../src/latch/calls.ts";
import { LatchModel } from "./model/latch-model.ts";
import { itOverBothTransports } from "./property-support.ts";
import { makeTestClient } from "./support.ts";

afterAll(closeAll);

type Op =
  | { kind: "set"; count: number }
  | { kind: "countDown" }
  | { kind: "replay"; pick: number }
  | { kind: "get" };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 2,
    arbitrary: fc.integer({ min: 1, max: 4 }).map((count) => ({ kind: "set" as const, count })),
  },
  { weight: 4, arbitrary: fc.constant({ kind: "countDown" as const }) },
  { weight: 3, arbitrary: fc.nat().map((pick) => ({ kind: "replay" as const, pick })) },
  { weight: 1, arbitrary: fc.constant({ kind: "get" as const }) },
);

async function runSequence(redis: RedisInput, ops: Op[]): Promise<void> {
  const prefix = keyPrefix();
  const { client } = makeTestClient(redis, { prefix });
  const latch = client.countDownLatch("prop");
  const ref: LatchRef = { ctx: client.context, name: "prop", keys: latchKeys(prefix, "prop") };
  const model = new LatchModel();
  const opIds: string[] = [];
  for (const [step, op] of ops.entries()) {
    if (op.kind === "set") {
      expect(await latch.trySetCount(op.count), `trySetCount(${op.count})`).toBe(
        model.trySetCount(op.count),
      );
    } else if (op.kind === "countDown" || (op.kind === "replay" && opIds.length > 0)) {
      const opId = op.kind === "replay" ? opIds[op.pick % opIds.length]! : `op-${step}`;
      if (op.kind === "countDown") opIds.push(opId);
      const expected = model.countDown(opId);
      expect((await runCountDown(ref, opId)).remaining, `countDown ${opId}`).toBe(expected);
    } else if (op.kind === "get") {
      expect(await latch.getCount()).toBe(model.count);
      expect(await latch.await({ waitMs: 0 })).toBe(model.count === 0);
    }
  }
  expect(await latch.getCount()).toBe(model.count);
}

describe("CountDownLatch against its reference model (fast-check)", () => {
  itOverBothTransports(
    "random set / countDown / replayed countDown sequences",
    opArb,
    { tcp: { maxLength: 40, numRuns: 40 }, rest: { maxLength: 30, numRuns: 15 } },
    { tcp: runSequence, rest: runSequence },
  );
});
