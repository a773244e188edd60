import { Redis } from "@upstash/redis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStack, uniqueKey, type TestStack } from "./support.ts";

// The server outlives its Redis: requests fail fast during an outage, and it reconnects after.
let stack: TestStack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.close();
});

describe("Redis restarting under the server", () => {
  it("answers 503 while Redis is down and serves again once it is back", async () => {
    const redis = new Redis({ url: stack.server.url, token: stack.token, retry: false });
    const key = uniqueKey("outage");
    await redis.set(key, "before");
    await stack.redis.restart();
    // The data died with the old process; the server finds the new one on its own.
    let value: unknown = "unreachable";
    const deadline = Date.now() + 5_000;
    while (Date.now() < deadline) {
      const res = await stack.call("/", { body: ["GET", key] });
      expect([200, 503]).toContain(res.status);
      if (res.status === 200) {
        value = (res.json as { result: unknown }).result;
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(value).toBeNull();
    expect(await redis.set(key, "after")).toBe("OK");
  });
});
