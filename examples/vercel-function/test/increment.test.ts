import { harness } from "@edgelock/testkit";
import { afterEach, beforeEach, expect, it } from "vitest";
import { POST } from "../api/increment.ts";

// The handler as Vercel calls it, with the project's variables pointing at the local rest-server.
beforeEach(() => {
  process.env.UPSTASH_REDIS_REST_URL = harness().restUrl;
  process.env.UPSTASH_REDIS_REST_TOKEN = harness().restToken;
});
afterEach(() => {
  delete process.env.UPSTASH_REDIS_REST_URL;
  delete process.env.UPSTASH_REDIS_REST_TOKEN;
});

it("increments under the lock, and answers 423 to a concurrent caller instead of losing its update", async () => {
  const name = `v-${crypto.randomUUID()}`;
  const responses = await Promise.all(
    Array.from({ length: 6 }, () =>
      POST(
        new Request(`https://example.vercel.app/api/increment?name=${name}`, { method: "POST" }),
      ),
    ),
  );
  const ok = responses.filter((r) => r.status === 200).length;
  expect(ok).toBeGreaterThanOrEqual(1);
  expect(responses.every((r) => r.status === 200 || r.status === 423)).toBe(true);
  const next = await POST(
    new Request(`https://example.vercel.app/api/increment?name=${name}`, { method: "POST" }),
  );
  expect(await next.json()).toMatchObject({ value: ok + 1 }); // no update was lost
});
