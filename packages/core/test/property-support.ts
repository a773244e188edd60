import { Redis } from "@upstash/redis";
import { harness, makeNodeRedis, type NodeRedisClient } from "@edgelock/testkit";
import fc from "fast-check";
import { expect, it } from "vitest";
import { NotHeldError } from "../src/index.ts";

/** How long the random sequences over one transport are, and how many of them run. */
export interface PropertyRuns {
  readonly maxLength: number;
  readonly numRuns: number;
}

/** Runs one random sequence of ops, through the transport's own client. */
export interface SequenceRunners<Op> {
  tcp(redis: NodeRedisClient, ops: Op[]): Promise<void>;
  rest(redis: Redis, ops: Op[]): Promise<void>;
}

/**
 * The two tests of a property against a reference model: random sequences (at least 5 ops) over
 * TCP (node-redis), then the same property through @upstash/redis and the rest-server.
 */
export function itOverBothTransports<Op>(
  title: string,
  op: fc.Arbitrary<Op>,
  runs: { readonly tcp: PropertyRuns; readonly rest: PropertyRuns },
  run: SequenceRunners<Op>,
): void {
  it(`TCP: ${title}`, async () => {
    const redis = await makeNodeRedis(harness().redisUrl);
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 5, maxLength: runs.tcp.maxLength }), (ops) =>
        run.tcp(redis, ops),
      ),
      { numRuns: runs.tcp.numRuns },
    );
  });

  it("REST: the same property through @upstash/redis and the rest-server", async () => {
    const env = harness();
    const redis = new Redis({ url: env.restUrl, token: env.restToken });
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 5, maxLength: runs.rest.maxLength }), (ops) =>
        run.rest(redis, ops),
      ),
      { numRuns: runs.rest.numRuns },
    );
  });
}

/** Releases or extends (by 60 s) a real hold and checks the outcome against the model's answer. */
export async function expectHoldOutcome(
  kind: "release" | "extend",
  index: number,
  hold: { release(): Promise<void>; extend(ms: number): Promise<void> },
  expected: string,
): Promise<void> {
  const action = kind === "release" ? hold.release() : hold.extend(60_000);
  const outcome = await action.then(
    () => "ok",
    (e: unknown) => (e instanceof NotHeldError ? "not-held" : e),
  );
  expect(outcome, `${kind} of hold ${index}`).toBe(expected === "not-held" ? "not-held" : "ok");
}
