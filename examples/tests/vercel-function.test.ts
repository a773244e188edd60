import { harness } from "@edgelock/testkit";
import { afterEach, beforeEach, expect, it } from "vitest";
import { POST } from "../vercel-function/app/api/counters/[name]/increment/route.ts";

// The route handler as Next.js calls it (params as a Promise), with the project's variables
// pointing at the local rest-server. `pnpm check:packs` runs it under `next build` + `next start`.
beforeEach(() => {
  process.env.UPSTASH_REDIS_REST_URL = harness().restUrl;
  process.env.UPSTASH_REDIS_REST_TOKEN = harness().restToken;
});
afterEach(() => {
  delete process.env.UPSTASH_REDIS_REST_URL;
  delete process.env.UPSTASH_REDIS_REST_TOKEN;
});

it("increments under the lock: concurrent callers wait their turn (or get 423), no update is lost", async () => {
  const name = `v-${crypto.randomUUID()}`;
  const call = () =>
    POST(
      new Request(`https://example.vercel.app/api/counters/${name}/increment`, { method: "POST" }),
      { params: Promise.resolve({ name }) },
    );
  const responses = await Promise.all(Array.from({ length: 6 }, call));
  const ok = responses.filter((r) => r.status === 200).length;
  expect(ok).toBeGreaterThanOrEqual(1);
  expect(responses.every((r) => r.status === 200 || r.status === 423)).toBe(true);
  const next = await call();
  expect(await next.json()).toMatchObject({ value: ok + 1 }); // no update was lost
});
