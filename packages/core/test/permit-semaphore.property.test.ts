import { closeAll, keyPrefix } from "@edgelock/testkit";
import fc from "fast-check";
import { afterAll, describe, expect } from "vitest";
import { NotHeldError, type Permit, type RedisInput } from "../src/index.ts";
import { permitSemaphoreKeys } from "../src/keys.ts";
import { PermitSemaphoreModel, type ModelPermit } from "./model/permit-semaphore-model.ts";
import { itOverBothTransports } from "./property-support.ts";
import { makeTestClient } from "./support.ts";

afterAll(closeAll);

type Op =
  | { kind: "set"; permits: number }
  | { kind: "add"; delta: number }
  | { kind: "try" }
  | { kind: "release"; pick: number }
  | { kind: "expire"; pick: number }
  | { kind: "status" };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 1,
    arbitrary: fc.integer({ min: 0, max: 3 }).map((permits) => ({ kind: "set" as const, permits })),
  },
  {
    weight: 2,
    arbitrary: fc.integer({ min: -2, max: 2 }).map((delta) => ({ kind: "add" as const, delta })),
  },
  { weight: 4, arbitrary: fc.constant({ kind: "try" as const }) },
  { weight: 3, arbitrary: fc.nat().map((pick) => ({ kind: "release" as const, pick })) },
  { weight: 2, arbitrary: fc.nat().map((pick) => ({ kind: "expire" as const, pick })) },
  { weight: 1, arbitrary: fc.constant({ kind: "status" as const }) },
);

/** Moves a permit's expiry into the past on the server, as if its lease had run out. */
type Expire = (key: string, permitId: string) => Promise<unknown>;

async function runSequence(redis: RedisInput, expireRaw: Expire, ops: Op[]): Promise<void> {
  const prefix = keyPrefix();
  const { client } = makeTestClient(redis, { prefix });
  const sem = client.permitExpirableSemaphore("prop");
  const permitsKey = permitSemaphoreKeys(prefix, "prop").permits;
  const model = new PermitSemaphoreModel();
  const held: { real: Permit; model: ModelPermit }[] = [];
  let maxFence = 0;
  try {
    for (const op of ops) {
      if (op.kind === "set") {
        expect(await sem.trySetPermits(op.permits)).toBe(model.trySetPermits(op.permits));
      } else if (op.kind === "add") {
        const outcome = await sem.addPermits(op.delta).then(
          () => "applied",
          () => "refused",
        );
        expect(outcome, `addPermits(${op.delta})`).toBe(model.addPermits(op.delta));
      } else if (op.kind === "try") {
        const expected = model.tryAcquire();
        const real = await sem.tryAcquire({ leaseMs: 60_000 });
        expect(real !== null, "tryAcquire").toBe(expected !== null);
        if (real && expected) {
          expect(real.fence).toBeGreaterThan(maxFence);
          maxFence = real.fence;
          held.push({ real, model: expected });
        }
      } else if ((op.kind === "release" || op.kind === "expire") && held.length > 0) {
        const permit = held[op.pick % held.length]!;
        if (op.kind === "expire") {
          model.expire(permit.model);
          await expireRaw(permitsKey, permit.real.id);
          continue;
        }
        const expected = model.release(permit.model);
        const outcome = await permit.real.release().then(
          () => "released",
          (e: unknown) => (e instanceof NotHeldError ? "not-held" : e),
        );
        expect(outcome, `release of permit ${permit.model.index}`).toBe(expected);
      } else if (op.kind === "status") {
        expect(await sem.status()).toMatchObject({
          set: model.set,
          total: model.total,
          available: model.available,
          live: model.live,
        });
      }
    }
    expect(await sem.availablePermits()).toBe(model.available);
  } finally {
    for (const { real } of held) await real[Symbol.asyncDispose]();
  }
}

describe("PermitExpirableSemaphore against its reference model (fast-check)", () => {
  itOverBothTransports(
    "random set / add / acquire / release / expire sequences",
    opArb,
    { tcp: { maxLength: 40, numRuns: 40 }, rest: { maxLength: 30, numRuns: 15 } },
    {
      tcp: (redis, ops) => {
        const expire: Expire = (key, id) => redis.zAdd(key, { score: 0, value: id }, { XX: true });
        return runSequence(redis, expire, ops);
      },
      rest: (redis, ops) => {
        const expire: Expire = (key, id) => redis.zadd(key, { xx: true }, { score: 0, member: id });
        return runSequence(redis, expire, ops);
      },
    },
  );
});
