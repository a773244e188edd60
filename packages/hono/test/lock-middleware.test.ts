import { createClient } from "@edgelock/core";
import { keyPrefix } from "@edgelock/testkit";
import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { recorders } from "./fixtures/app.ts";

const probe = (prefix: string) =>
  createClient({
    redis: { url: env.UPSTASH_REDIS_REST_URL, token: env.UPSTASH_REDIS_REST_TOKEN },
    prefix,
  });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function eventually(check: () => Promise<boolean>, ms: number, what: string): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`not within ${ms} ms: ${what}`);
    await sleep(25);
  }
}

describe.concurrent("lockMiddleware in workerd", () => {
  it("serializes concurrent requests on one name: recorded sections never overlap, fences increase", async () => {
    const prefix = keyPrefix();
    const run = crypto.randomUUID();
    const responses = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        SELF.fetch(`http://app/serial/k?prefix=${prefix}&run=${run}&who=req-${i}`, {
          method: "POST",
        }),
      ),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(12).fill(200));
    const recorder = recorders.get(run)!;
    expect(recorder.intervals()).toHaveLength(12);
    expect(recorder.overlaps()).toEqual([]);
    expect(recorder.fencesIncreasingInGrantOrder()).toBe(true);
    await eventually(
      async () => !(await probe(prefix).lock("job:k").isLocked()),
      2_000,
      "released after the last response",
    );
  });

  it("takes a Lock-only client (createLockClient): concurrent requests serialized, fences increase", async () => {
    const prefix = keyPrefix();
    const run = crypto.randomUUID();
    const responses = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        SELF.fetch(`http://app/lock-only/k?prefix=${prefix}&run=${run}&who=req-${i}`, {
          method: "POST",
        }),
      ),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(6).fill(200));
    const recorder = recorders.get(run)!;
    expect(recorder.intervals()).toHaveLength(6);
    expect(recorder.overlaps()).toEqual([]);
    expect(recorder.fencesIncreasingInGrantOrder()).toBe(true);
  });

  it("answers 423 with Retry-After when the lock stays busy for the wait budget", async () => {
    const prefix = keyPrefix();
    const held = await probe(prefix).lock("job:b").acquire({ leaseMs: 5_000 });
    const response = await SELF.fetch(`http://app/busy/b?prefix=${prefix}`);
    expect(response.status).toBe(423);
    expect(Number(response.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(Number(response.headers.get("retry-after"))).toBeLessThanOrEqual(5);
    expect(await response.json()).toEqual({ error: "locked", name: "job:b" });
    await held.release();
    // The refused request's waiter leaves the queue in the background (registered with waitUntil).
    await eventually(
      async () => !(await probe(prefix).lock("job:b").isLocked()),
      3_000,
      "the refused waiter left",
    );
    expect((await SELF.fetch(`http://app/busy/b?prefix=${prefix}`)).status).toBe(200);
  });

  it("Retry-After follows the holder, not a constant: a 2 s lease and a 9 s lease answer differently", async () => {
    const retryAfterWith = async (leaseMs: number) => {
      const prefix = keyPrefix();
      const held = await probe(prefix).lock("job:r").acquire({ leaseMs });
      const response = await SELF.fetch(`http://app/busy/r?prefix=${prefix}`);
      expect(response.status).toBe(423);
      await held.release();
      return Number(response.headers.get("retry-after"));
    };
    const [short, long] = await Promise.all([retryAfterWith(2_000), retryAfterWith(9_000)]);
    expect(short).toBeGreaterThanOrEqual(1);
    expect(short).toBeLessThanOrEqual(2);
    expect(long).toBeGreaterThanOrEqual(7);
    expect(long).toBeLessThanOrEqual(9);
  });

  // The core attaches the refused wait's last busy answer (with the server's hold statistics)
  // to AcquireTimeoutError as `hint`: Retry-After comes from it, without another request.
  it("Retry-After of a kept-alive holder comes from typical hold times, not its 30 s lease", async () => {
    const prefix = keyPrefix();
    for (let i = 0; i < 5; i++) {
      // short holds (~20 ms): the server learns this name's typical hold
      const r = await SELF.fetch(`http://app/serial/h?prefix=${prefix}&run=${prefix}&who=${i}`, {
        method: "POST",
      });
      expect(r.status).toBe(200);
      await r.text(); // the lock is released after the last chunk
    }
    // default 30 s lease, kept alive; the last serial request's release may still be on its way
    const held = await probe(prefix).lock("job:h").acquire({ waitMs: 5_000 });
    const response = await SELF.fetch(`http://app/busy/h?prefix=${prefix}`);
    await held.release();
    expect(response.status).toBe(423);
    expect(Number(response.headers.get("retry-after"))).toBeLessThanOrEqual(2);
  });

  it("releases when the handler throws", async () => {
    const prefix = keyPrefix();
    const response = await SELF.fetch(`http://app/throw/t?prefix=${prefix}`);
    expect(response.status).toBe(500);
    await eventually(
      async () => !(await probe(prefix).lock("job:t").isLocked()),
      2_000,
      "released after the error",
    );
  });

  it("holds the lock while a streamed body is sent, and releases after its last chunk", async () => {
    const prefix = keyPrefix();
    const lock = probe(prefix).lock("job:s");
    const response = await SELF.fetch(`http://app/stream/s?prefix=${prefix}`);
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value);
      if (!text.includes("chunk 3")) expect(await lock.isLocked()).toBe(true); // mid-stream: still held
    }
    expect(text).toBe("chunk 0\nchunk 1\nchunk 2\nchunk 3\n");
    await eventually(async () => !(await lock.isLocked()), 2_000, "released after the stream");
  });

  it("releases when the client abandons a streamed body", async () => {
    const prefix = keyPrefix();
    const lock = probe(prefix).lock("job:c");
    const response = await SELF.fetch(`http://app/stream/c?prefix=${prefix}`);
    const reader = response.body!.getReader();
    await reader.read();
    expect(await lock.isLocked()).toBe(true);
    await reader.cancel();
    await eventually(async () => !(await lock.isLocked()), 3_000, "released after the cancel");
  });

  it("aborts c.get('lockSignal') when the lease is lost mid-request", async () => {
    const prefix = keyPrefix();
    const response = await SELF.fetch(`http://app/lose/l?prefix=${prefix}`);
    expect(await response.json()).toEqual({ aborted: true, reason: "deadline" });
  });
});
