import { httpTransport, leaseKeeperClient } from "@edgelock/cloudflare";
import { createClient } from "@edgelock/core";
import { harness, keyPrefix } from "@edgelock/testkit";
import { runWorker, type RunningWorker } from "@edgelock/testkit/worker";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../lease-keeper-worker", import.meta.url));
const secret = "example-keeper-secret";

// The user's own keeper Worker (the docs' ten lines), as wrangler bundles it, in workerd, driven
// over HTTP the way a Vercel function drives it.
describe("examples/lease-keeper-worker", () => {
  let worker: RunningWorker;
  beforeAll(async () => {
    const h = harness();
    worker = await runWorker(
      root,
      {
        UPSTASH_REDIS_REST_URL: h.restUrl,
        UPSTASH_REDIS_REST_TOKEN: h.restToken,
        EDGELOCK_KEEPER_SECRET: secret,
      },
      { LEASE_KEEPER: "LeaseKeeper" },
    );
  }, 60_000);
  afterAll(() => worker?.close());

  it("builds with wrangler deploy --dry-run, binding LeaseKeeper", () => {
    expect(worker.build.output).toMatch(/env\.LEASE_KEEPER \(LeaseKeeper\)\s+Durable Object/);
  });

  it("keeps a handed-over lease past its own end, then releases it", async () => {
    const h = harness();
    const lock = createClient({
      redis: { url: h.restUrl, token: h.restToken },
      prefix: keyPrefix(),
    }).lock("report");
    const held = await lock.acquire({ leaseMs: 600 });
    const keeper = leaseKeeperClient(httpTransport({ url: worker.url, secret }));
    expect((await keeper.keep(held.toJSON(), { maxHoldMs: 30_000, leaseMs: 600 })).state).toBe(
      "kept",
    );
    await new Promise((resolve) => setTimeout(resolve, 1_000)); // past the original lease
    expect(await lock.isLocked()).toBe(true);
    expect((await keeper.release(held.toJSON())).state).toBe("released");
    expect(await lock.isLocked()).toBe(false);
  });
});
