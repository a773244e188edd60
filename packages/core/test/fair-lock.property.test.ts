import { closeAll, keyPrefix } from "@edgelock/testkit";
import fc from "fast-check";
import { afterAll, describe, expect } from "vitest";
import { fairLockCalls } from "../src/fair-lock/calls.ts";
import { newOperation } from "../src/engine/operation.ts";
import { resolveBackend, type RedisInput } from "../src/index.ts";
import { fairLockKeys } from "../src/keys.ts";
import type { LockRef } from "../src/lock/lock-ref.ts";
import { FairLockModel } from "./model/fair-lock-model.ts";
import { itOverBothTransports } from "./property-support.ts";
import { makeTestClient } from "./support.ts";

afterAll(closeAll);

// Drives the fair lock's scripts (one attempt at a time, as the acquire loop does) from several
// owners and compares every answer with the model. Time never passes: deadlines and leases are a
// minute long, and a missed deadline or an expired lease is an explicit step.
const OWNERS = 3;
const LONG = 60_000;
type Op =
  | { kind: "acquire"; owner: number; queue: boolean }
  | { kind: "release" | "extend" | "die" | "leave"; owner: number }
  | { kind: "expire" | "inspect" };

const owner = fc.integer({ min: 0, max: OWNERS - 1 });
const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant("acquire" as const),
      owner,
      queue: fc.nat(3).map((n) => n > 0),
    }),
  },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant("release" as const), owner }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("extend" as const), owner }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("die" as const), owner }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("leave" as const), owner }) },
  { weight: 1, arbitrary: fc.constant({ kind: "expire" as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: "inspect" as const }) },
);

async function runSequence(redis: RedisInput, ops: Op[]): Promise<void> {
  const prefix = keyPrefix();
  const { client } = makeTestClient(redis, { prefix });
  const raw = resolveBackend(redis);
  const command = (...args: (string | number)[]) => raw.command(args, AbortSignal.timeout(5_000));
  const keys = fairLockKeys(prefix, "prop");
  const refs: LockRef[] = Array.from({ length: OWNERS }, (_, i) => ({
    ctx: client.context,
    name: "prop",
    owner: `owner-${i}`,
    keys,
    calls: fairLockCalls,
  }));
  const model = new FairLockModel();
  const fenceOf = new Map<number, number>();
  // each owner's last grant, with the lease version it last saw (renewals are ordered by it)
  const known = new Map<number, { grant: number; fence: number; version: number }>();
  let maxFence = 0;
  // As the client's acquire loop says (AcquireParams.queuedBefore): an earlier attempt of this
  // waiter may have queued it, until it is granted or leaves.
  const mayBeQueued = new Set<number>();
  for (const [step, op] of ops.entries()) {
    const at = `step ${step}: ${JSON.stringify(op)}`;
    if (op.kind === "acquire") {
      const expected = model.acquire(op.owner, op.queue);
      const queuedBefore = mayBeQueued.has(op.owner);
      if (op.queue) mayBeQueued.add(op.owner);
      const { reply } = await fairLockCalls.acquire(refs[op.owner]!, {
        leaseMs: LONG,
        queue: op.queue,
        queuedBefore,
        returnWithinMs: LONG,
        op: newOperation(),
        budgetMs: LONG,
      });
      if (reply.status === "busy") {
        expect(expected.answer, at).toBe("busy");
        expect(reply.hint.position, at).toBe(expected.position);
        continue;
      }
      expect(reply.status, at).toBe(expected.answer);
      if (reply.status === "abandoned") continue;
      mayBeQueued.delete(op.owner);
      const grant = model.holder!.grant;
      if (reply.status === "granted" && !fenceOf.has(grant)) {
        expect(reply.fence, at).toBeGreaterThan(maxFence);
        fenceOf.set(grant, reply.fence);
        maxFence = reply.fence;
      }
      expect(reply.fence, at).toBe(fenceOf.get(grant));
      known.set(op.owner, { grant, fence: reply.fence, version: reply.version });
    } else if (op.kind === "release" || op.kind === "extend") {
      const k = known.get(op.owner);
      if (!k) continue;
      if (op.kind === "release") {
        const expected = model.release(op.owner, k.grant);
        const real = await fairLockCalls.release(refs[op.owner]!, k.fence, newOperation());
        expect(real.released ? "released" : "not-held", at).toBe(expected);
      } else {
        const expected = model.extend(op.owner, k.grant);
        const real = await fairLockCalls.extend(refs[op.owner]!, {
          fence: k.fence,
          version: k.version,
          leaseMs: LONG,
          op: newOperation(),
          budgetMs: LONG,
        });
        expect(real.status === "renewed" ? "extended" : real.status, at).toBe(
          expected === "extended" ? "extended" : "gone",
        );
        if (real.status === "renewed") k.version = real.version;
      }
    } else if (op.kind === "die") {
      model.die(op.owner);
      await command("ZADD", keys.queueDeadlines, "XX", 0, `owner-${op.owner}`);
    } else if (op.kind === "leave") {
      model.leave(op.owner);
      mayBeQueued.delete(op.owner);
      await fairLockCalls.abandon(refs[op.owner]!, newOperation());
    } else if (op.kind === "expire") {
      model.expire();
      await command("DEL", keys.lock);
    } else {
      for (let i = 0; i < OWNERS; i++) {
        const info = await fairLockCalls.inspect(refs[i]!);
        expect(info.mine, `${at} holdCount of ${i}`).toBe(model.holdCount(i));
        expect(info.locked, at).toBe(model.holder !== null);
        expect(info.waiters, at).toBe(model.liveWaiters());
      }
    }
  }
}

describe("FairLock scripts against the reference model (fast-check)", () => {
  itOverBothTransports(
    "random attempts, releases, deaths, departures and expiries from 3 owners",
    opArb,
    { tcp: { maxLength: 60, numRuns: 200 }, rest: { maxLength: 40, numRuns: 30 } },
    { tcp: runSequence, rest: runSequence },
  );
});
