import { harness, keyPrefix } from "@edgelock/testkit";
import { Redis } from "@upstash/redis";
import { describe, expect, it } from "vitest";
import { createClient } from "../src/index.ts";
import { createLockClient, InvalidArgumentError } from "../src/lock-entry.ts";

const redis = () => new Redis({ url: harness().restUrl, token: harness().restToken });

describe("@edgelock/core/lock: the Lock-only client", () => {
  it("makes the same Lock as createClient: they exclude each other and share fences", async () => {
    const prefix = keyPrefix();
    const small = createLockClient({ redis: redis(), prefix });
    const full = createClient({ redis: redis(), prefix });
    const held = await small.lock("shared").acquire({ leaseMs: 10_000 });
    expect(await full.lock("shared").tryAcquire()).toBeNull();
    await held.release();
    const next = await full.lock("shared").acquire();
    expect(next.fence).toBeGreaterThan(held.fence);
    await next.release();
    await small.settled();
  });

  it("validates options and names like createClient, before any request", () => {
    expect(() => createLockClient({} as never)).toThrow(InvalidArgumentError);
    expect(() => createLockClient({ redis: redis(), leaseMs: -1 })).toThrow(/options\.leaseMs/);
    const client = createLockClient({ redis: redis() });
    expect(() => client.lock("")).toThrow(/name/);
    expect(() => client.lock("x", { owner: "" })).toThrow(/options\.owner/);
  });
});
