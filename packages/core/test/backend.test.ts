import { Redis } from "@upstash/redis";
import { closeAll, harness, makeNodeRedis } from "@edgelock/testkit";
import { afterAll, describe, expect, it } from "vitest";
import { InvalidArgumentError, resolveBackend } from "../src/index.ts";
import { runBackendConformance } from "./conformance/backend.conformance.ts";

afterAll(closeAll);

const upstash = () => new Redis({ url: harness().restUrl, token: harness().restToken });

// The Upstash client as users configure it: we take its credentials and speak REST ourselves.
runBackendConformance({
  name: "REST from an @upstash/redis client",
  makeBackend: () => resolveBackend(upstash()),
});

runBackendConformance({
  name: "REST from { url, token }",
  makeBackend: () => resolveBackend({ url: harness().restUrl, token: harness().restToken }),
});

// A client whose credentials are hidden (custom requester): we must go through its requester,
// which answers an aborted call with a *successful* "Aborted" result that must not pass as a reply.
runBackendConformance({
  name: "REST through an @upstash/redis requester",
  makeBackend: () => {
    const inner = (upstash() as unknown as { client: { request(req: unknown): Promise<unknown> } })
      .client;
    return resolveBackend({ client: { request: (req: unknown) => inner.request(req) } });
  },
});

runBackendConformance({
  name: "TCP (node-redis)",
  makeBackend: async () => resolveBackend(await makeNodeRedis(harness().redisUrl)),
});

describe("resolveBackend", () => {
  it("refuses what it cannot use, naming the argument", () => {
    for (const bad of [undefined, null, 42, "redis://x", {}]) {
      expect(() => resolveBackend(bad)).toThrow(InvalidArgumentError);
      expect(() => resolveBackend(bad)).toThrow(/redis/);
    }
  });

  it("never runs through the caller's auto-pipelining client: the Upstash client becomes a plain REST backend", () => {
    const backend = resolveBackend(upstash());
    expect(backend.kind).toBe("rest");
  });
});
