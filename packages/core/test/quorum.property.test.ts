import { closeAll, harness, keyPrefix, makeNodeRedis } from "@edgelock/testkit";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import {
  NotHeldError,
  QuorumError,
  quorumLock,
  resolveBackend,
  type HeldQuorumLock,
} from "../src/index.ts";
import { quorumKeys } from "../src/keys.ts";
import { QuorumModel } from "./model/quorum-model.ts";
import { switchableBackend } from "./quorum-backends.ts";
import { makeTestClient } from "./support.ts";

afterAll(closeAll);

const N = 5;
type Op =
  | { kind: "down" | "up" | "wipe"; db: number }
  | { kind: "try" }
  | { kind: "release"; pick: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constantFrom("down" as const, "up" as const),
      db: fc.nat(N - 1),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("wipe" as const), db: fc.nat(N - 1) }) },
  { weight: 4, arbitrary: fc.constant({ kind: "try" as const }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("release" as const), pick: fc.nat() }) },
);

function outcome(e: unknown): string {
  if (e instanceof QuorumError) return "unreachable";
  if (e instanceof NotHeldError) return "not-held";
  throw e;
}

describe("quorum lock against a model of majority outcomes (fast-check)", () => {
  it("databases going down, coming back and losing their data: outcomes match; fences always increase", async () => {
    const raw = await makeNodeRedis(harness().redisUrl);
    const inner = resolveBackend(raw);
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 5, maxLength: 30 }), async (ops) => {
        // N independent databases: one Redis, a key prefix each, each behind a switch.
        const prefixes = Array.from({ length: N }, () => keyPrefix());
        const switches = prefixes.map(() => switchableBackend(inner));
        const clients = switches.map(
          (s, i) => makeTestClient(s.backend, { prefix: prefixes[i]! }).client,
        );
        const lock = quorumLock(clients, "prop", { requestTimeoutMs: 1_000 });
        const model = new QuorumModel(N);
        const holds: HeldQuorumLock[] = [];
        let lastFence = 0;
        for (const op of ops) {
          if (op.kind === "down" || op.kind === "up") {
            model.down[op.db] = op.kind === "down";
            switches[op.db]!.setDown(op.kind === "down");
          } else if (op.kind === "wipe") {
            model.wipe(op.db);
            const keys = quorumKeys(prefixes[op.db]!, "prop");
            await raw.del([keys.lock, keys.fence]);
          } else if (op.kind === "try") {
            const expected = model.tryAcquire(holds.length);
            const got: HeldQuorumLock | string = await lock
              .tryAcquire({ leaseMs: 60_000 })
              .then((h) => h ?? "busy", outcome);
            expect(typeof got === "object" ? "granted" : got, `try #${holds.length}`).toBe(
              expected,
            );
            if (typeof got === "object") {
              expect(got.fence).toBeGreaterThan(lastFence);
              lastFence = got.fence;
              holds.push(got);
            }
          } else if (op.kind === "release" && holds.length > 0) {
            const index = op.pick % holds.length;
            const expected = model.release(index);
            const got = await holds[index]!.release().then(() => "released", outcome);
            expect(got, `release of #${index}`).toBe(expected);
          }
        }
      }),
      { numRuns: 150 },
    );
  });
});
