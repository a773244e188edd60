import { Redis } from "@upstash/redis";
import { closeAll, harness } from "@edgelock/testkit";
import { afterAll, describe, expect, it } from "vitest";
import { createClient, InvalidArgumentError, resolveBackend } from "../src/index.ts";
import { runBackendConformance } from "./conformance/backend.conformance.ts";

afterAll(closeAll);

const upstash = () => new Redis({ url: harness().restUrl, token: harness().restToken });

// The Upstash client as users configure it, and node-redis, run the Backend suite with every
// other suite (conformance.rest.test.ts, conformance.tcp.test.ts); here, the other ways to pass
// a REST connection.
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
    // The inside of such a client; not a type a user would pass.
    return resolveBackend({ client: { request: (req: unknown) => inner.request(req) } } as never);
  },
});

describe("resolveBackend", () => {
  it("refuses what it cannot use, naming the argument", () => {
    // What plain JavaScript (or a cast) can still pass; the types refuse it (redis-option.typecheck.ts).
    for (const bad of [undefined, null, 42, "redis://x", {}, { sendCommand: 1 }] as never[]) {
      expect(() => resolveBackend(bad)).toThrow(InvalidArgumentError);
      expect(() => resolveBackend(bad)).toThrow(/redis/);
    }
  });

  it("createClient refuses a wrong redis value at runtime too, naming it", () => {
    const argumentOf = (redis: unknown) => {
      try {
        createClient({ redis: redis as never });
        return "no error";
      } catch (e) {
        expect(e).toBeInstanceOf(InvalidArgumentError);
        return `${(e as InvalidArgumentError).argument}: ${(e as Error).message}`;
      }
    };
    expect(argumentOf("redis://127.0.0.1:6379")).toMatch(
      /^redis: .*got a string: pass \{ url, token \}/,
    );
    expect(argumentOf({})).toMatch(/^redis: redis: must be \{ url, token \}/);
    expect(argumentOf(Redis)).toMatch(/^redis: /);
    expect(argumentOf({ url: harness().restUrl })).toMatch(/^redis\.token: /);
    expect(argumentOf(undefined)).toMatch(/^options\.redis: /);
  });

  it("never runs through the caller's auto-pipelining client: the Upstash client becomes a plain REST backend", () => {
    const backend = resolveBackend(upstash());
    expect(backend.kind).toBe("rest");
  });
});
