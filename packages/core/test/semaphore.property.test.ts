import { closeAll, keyPrefix } from "@edgelock/testkit";
import fc from "fast-check";
import { afterAll, describe, expect } from "vitest";
import {
  NotHeldError,
  PermitsRefusedError,
  type SemaphoreHold,
  type RedisInput,
} from "../src/index.ts";
import { semaphoreKeys } from "../src/keys.ts";
import { runChange, type SemaphoreRef } from "../src/semaphore/calls.ts";
import { SemaphoreModel, type ModelSemaphoreHold } from "./model/semaphore-model.ts";
import { itOverBothTransports } from "./property-support.ts";
import { makeTestClient } from "./support.ts";

/** An operation with a fixed id: repeating it replays one operation. */
const opOf = (id: string) => ({ id, deadline: undefined as number | undefined });

afterAll(closeAll);

type Change = "trySetPermits" | "addPermits" | "release";
type Op =
  | { kind: "change"; which: Change; amount: number }
  | { kind: "try"; permits: number }
  | { kind: "releaseHold"; pick: number }
  | { kind: "replay"; pick: number }
  | { kind: "status" };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 1,
    arbitrary: fc
      .integer({ min: 0, max: 4 })
      .map((amount) => ({ kind: "change" as const, which: "trySetPermits" as const, amount })),
  },
  {
    weight: 2,
    arbitrary: fc
      .integer({ min: -3, max: 3 })
      .map((amount) => ({ kind: "change" as const, which: "addPermits" as const, amount })),
  },
  {
    weight: 2,
    arbitrary: fc
      .integer({ min: 1, max: 2 })
      .map((amount) => ({ kind: "change" as const, which: "release" as const, amount })),
  },
  {
    weight: 4,
    arbitrary: fc.integer({ min: 1, max: 3 }).map((permits) => ({ kind: "try" as const, permits })),
  },
  { weight: 3, arbitrary: fc.nat().map((pick) => ({ kind: "releaseHold" as const, pick })) },
  { weight: 2, arbitrary: fc.nat().map((pick) => ({ kind: "replay" as const, pick })) },
  { weight: 1, arbitrary: fc.constant({ kind: "status" as const }) },
);

function applyModel(model: SemaphoreModel, which: Change, amount: number): boolean {
  if (which === "trySetPermits") return model.trySetPermits(amount);
  return (which === "addPermits" ? model.addPermits(amount) : model.release(amount)) === "applied";
}

async function runSequence(redis: RedisInput, ops: Op[]): Promise<void> {
  const prefix = keyPrefix();
  const { client } = makeTestClient(redis, { prefix });
  const sem = client.semaphore("prop");
  const ref: SemaphoreRef = {
    ctx: client.context,
    name: "prop",
    keys: semaphoreKeys(prefix, "prop"),
  };
  const model = new SemaphoreModel();
  const holds: { real: SemaphoreHold; model: ModelSemaphoreHold }[] = [];
  const changes: { which: Change; amount: number; opId: string; applied: boolean }[] = [];
  for (const [step, op] of ops.entries()) {
    if (op.kind === "change") {
      const opId = `op-${step}`;
      const expected = applyModel(model, op.which, op.amount);
      const { applied } = await runChange(ref, op.which, op.amount, opOf(opId));
      expect(applied, `${op.which}(${op.amount})`).toBe(expected);
      changes.push({ ...op, opId, applied });
    } else if (op.kind === "replay" && changes.length > 0) {
      // a late duplicate of an earlier change: same answer, nothing applied twice
      const first = changes[op.pick % changes.length]!;
      expect((await runChange(ref, first.which, first.amount, opOf(first.opId))).applied).toBe(
        first.applied,
      );
    } else if (op.kind === "try") {
      const expected = model.tryAcquire(op.permits);
      const real = await sem.tryAcquire({ permits: op.permits });
      expect(real !== null, `tryAcquire(${op.permits})`).toBe(expected !== null);
      if (real && expected) holds.push({ real, model: expected });
    } else if (op.kind === "releaseHold" && holds.length > 0) {
      const hold = holds[op.pick % holds.length]!;
      const expected = model.releaseHold(hold.model);
      const outcome = await hold.real.release().then(
        () => "applied",
        (e: unknown) =>
          e instanceof NotHeldError ? "not-held" : e instanceof PermitsRefusedError ? "refused" : e,
      );
      expect(outcome, "hold.release()").toBe(expected);
    } else if (op.kind === "status") {
      expect(await sem.status()).toMatchObject({
        set: model.set,
        available: model.available,
        total: model.total,
        waiters: 0,
      });
    }
  }
  expect(await sem.status()).toMatchObject({
    set: model.set,
    available: model.available,
    total: model.total,
  });
}

describe("Semaphore against its reference model (fast-check)", () => {
  itOverBothTransports(
    "random set / add / acquire / release / replay sequences",
    opArb,
    { tcp: { maxLength: 40, numRuns: 40 }, rest: { maxLength: 30, numRuns: 15 } },
    { tcp: runSequence, rest: runSequence },
  );
});
