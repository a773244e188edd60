import { Redis } from "@upstash/redis";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startStack, uniqueKey, type TestStack } from "./support.ts";

// The real @upstash/redis client must not be able to tell this server from Upstash.
let stack: TestStack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.close();
});
beforeEach(() => {
  stack.server.rest.resetStats();
});

const clients = {
  "default settings": () => new Redis({ url: stack.server.url, token: stack.token }),
  "no auto-pipelining, no deserialization, no retry": () =>
    new Redis({
      url: stack.server.url,
      token: stack.token,
      enableAutoPipelining: false,
      automaticDeserialization: false,
      retry: false,
    }),
};

for (const [name, make] of Object.entries(clients)) {
  describe(`@upstash/redis with ${name}`, () => {
    it("round-trips a non-ASCII string and counts integers", async () => {
      const redis = make();
      const key = uniqueKey("client");
      expect(await redis.set(key, "héllo ✓")).toBe("OK");
      expect(await redis.get(key)).toBe("héllo ✓");
      expect(await redis.incr(`${key}:n`)).toBe(1);
      expect(await redis.get(uniqueKey("missing"))).toBeNull();
    });

    it("gets nested script replies back intact", async () => {
      const redis = make();
      expect(await redis.eval("return {1, 'a', {'b', 2}}", [], [])).toEqual([1, "a", ["b", 2]]);
    });

    it("throws an UpstashError carrying the Redis message", async () => {
      const redis = make();
      const key = uniqueKey("err");
      await redis.set(key, "not a number");
      await expect(redis.incr(key)).rejects.toThrow(/not an integer/);
    });

    it("runs a pipeline and a transaction", async () => {
      const redis = make();
      const key = uniqueKey("batch");
      const piped = await redis.pipeline().set(key, "1").incr(key).get(key).exec();
      expect(piped.map(String)).toEqual(["OK", "2", "2"]);
      const tx = await redis.multi().incr(key).incr(key).exec();
      expect(tx).toEqual([3, 4]);
      expect(stack.server.rest.stats().commands).toMatchObject({ set: 1, incr: 3, get: 1 });
    });

    it("createScript: EVALSHA, NOSCRIPT, then EVAL, then EVALSHA alone", async () => {
      const redis = make();
      const script = redis.createScript<number>(
        `-- ${name} ${Math.random()}\nreturn tonumber(ARGV[1]) + 1`,
      );
      stack.server.rest.resetStats();
      expect(Number(await script.exec([], ["41"]))).toBe(42);
      expect(stack.server.rest.stats().commands).toEqual({ evalsha: 1, eval: 1 });
      expect(Number(await script.exec([], ["1"]))).toBe(2);
      expect(stack.server.rest.stats().commands).toEqual({ evalsha: 2, eval: 1 });
    });

    it("lets a script call TIME", async () => {
      const redis = make();
      const [seconds, micros] = (await redis.eval("return redis.call('TIME')", [], [])) as [
        unknown,
        unknown,
      ];
      expect(Number(seconds)).toBeGreaterThan(1_600_000_000);
      expect(Number(micros)).toBeGreaterThanOrEqual(0);
    });

    it("receives the sync token and sends it back", async () => {
      const redis = make();
      await redis.ping();
      expect(redis.readYourWritesSyncToken).toMatch(/.+/);
    });
  });
}

describe("subscribe over Server-Sent Events", () => {
  it("receives the subscribe count, a PUBLISH, and a PUBLISH from a script", async () => {
    const redis = new Redis({ url: stack.server.url, token: stack.token });
    const channel = uniqueKey("chan");
    const subscriber = redis.subscribe<unknown>(channel);
    const counts: number[] = [];
    const messages: unknown[] = [];
    subscriber.on("subscribe", (count) => counts.push(count));
    subscriber.on("message", ({ message }) => messages.push(message));
    try {
      await until(() => counts.length === 1);
      expect(counts).toEqual([1]);
      expect(await redis.publish(channel, { hello: "wörld" })).toBe(1);
      await redis.eval(
        "return redis.call('PUBLISH', KEYS[1], ARGV[1])",
        [channel],
        ["from-script"],
      );
      await until(() => messages.length === 2);
      expect(messages).toEqual([{ hello: "wörld" }, "from-script"]);
    } finally {
      await subscriber.unsubscribe();
    }
    // The dedicated subscriber connection is closed once the client goes away.
    const subscribers = async () =>
      (
        (await stack.call("/", { body: ["PUBSUB", "NUMSUB", channel] })).json as {
          result: unknown[];
        }
      ).result[1];
    await until(async () => (await subscribers()) === 0);
  });

  it("counts the stream as one HTTP request", async () => {
    stack.server.rest.resetStats();
    const controller = new AbortController();
    const res = await fetch(`${stack.server.url}/subscribe/${uniqueKey("c")}`, {
      method: "POST",
      headers: { authorization: `Bearer ${stack.token}` },
      body: "[]",
      signal: controller.signal,
    });
    expect(res.headers.get("content-type")).toBe("text/event-stream");
    controller.abort();
    expect(stack.server.rest.stats()).toMatchObject({
      httpRequests: 1,
      commands: { subscribe: 1 },
    });
  });
});

async function until(check: () => boolean | Promise<boolean>, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
