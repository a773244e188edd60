import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { keeperFromEnv, redisFromEnv } from "../src/index.ts";

describe("fromEnv helpers", () => {
  it("name the missing variable and how to set it", () => {
    expect(() => redisFromEnv({})).toThrow(
      /env\.UPSTASH_REDIS_REST_URL: is not set.*wrangler secret put UPSTASH_REDIS_REST_URL/,
    );
    expect(() => redisFromEnv({ UPSTASH_REDIS_REST_URL: "https://x" })).toThrow(
      /env\.UPSTASH_REDIS_REST_TOKEN: is not set/,
    );
    expect(() => keeperFromEnv({ LEASE_KEEPER: env.LEASE_KEEPER })).toThrow(
      /env\.EDGELOCK_KEEPER_SECRET: is not set/,
    );
  });

  it("name the missing binding and the wrangler.jsonc entry to add", () => {
    expect(() => keeperFromEnv({ EDGELOCK_KEEPER_SECRET: "s" })).toThrow(
      /env\.LEASE_KEEPER: is missing: add a Durable Object binding.*durable_objects\.bindings/,
    );
    expect(() =>
      keeperFromEnv({ EDGELOCK_KEEPER_SECRET: "s", KEEPER: {} }, { binding: "KEEPER" }),
    ).toThrow(/env\.KEEPER: is not a Durable Object namespace binding/);
  });

  it("use the binding when there is one, else EDGELOCK_KEEPER_URL", () => {
    expect(typeof keeperFromEnv(env).keep).toBe("function");
    expect(
      typeof keeperFromEnv({
        EDGELOCK_KEEPER_SECRET: "s",
        EDGELOCK_KEEPER_URL: "https://keeper.example",
      }).keep,
    ).toBe("function");
  });
});
