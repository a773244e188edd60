import { httpTransport, leaseKeeperClient, leaseObjectName } from "@edgelock/cloudflare";
import { createClient } from "@edgelock/core";
import { harness, keyPrefix } from "@edgelock/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startKeeper, type RunningKeeper } from "./start-keeper.ts";

// The deployable Worker, built by wrangler and run in workerd, driven over HTTP the way a
// Vercel function or a Node process drives it.
describe("workers/lease-keeper", () => {
  let keeper: RunningKeeper;
  beforeAll(async () => {
    const h = harness();
    keeper = await startKeeper({ url: h.restUrl, token: h.restToken });
  }, 60_000);
  afterAll(() => keeper?.close());

  const lockClient = (prefix: string) =>
    createClient({ redis: { url: harness().restUrl, token: harness().restToken }, prefix });

  it("builds with wrangler deploy --dry-run (the server under test is that bundle)", () => {
    const built = keeper.build;
    expect(built.output).toMatch(/env\.LEASE_KEEPER \(LeaseKeeper\)\s+Durable Object/);
    expect(built.bytes).toBeLessThan(1_000_000);
    console.info(
      `[lease-keeper] bundle ${(built.bytes / 1024).toFixed(1)} KiB; ${/Total Upload: .*/.exec(built.output)?.[0]}`,
    );
  });

  it("answers 401 to a request without the secret, and to a wrong one", async () => {
    const lease = (await lockClient(keyPrefix()).lock("a").acquire({ leaseMs: 2_000 })).toJSON();
    const path = `${keeper.url}/v1/leases/${await leaseObjectName(lease)}/status`;
    for (const headers of [{}, { authorization: "Bearer nope" }]) {
      const response = await fetch(path, {
        method: "POST",
        headers,
        body: JSON.stringify({ lease }),
      });
      expect(response.status).toBe(401);
    }
    const wrong = leaseKeeperClient(httpTransport({ url: keeper.url, secret: "wrong" }));
    await expect(wrong.status(lease)).rejects.toThrow(/401/);
  });

  it("keeps a lease handed over by HTTP past five lease periods, then releases it", async () => {
    const prefix = keyPrefix();
    const held = await lockClient(prefix).lock("job").acquire({ leaseMs: 600 });
    const client = leaseKeeperClient(httpTransport({ url: keeper.url, secret: keeper.secret }));
    expect(await client.keep(held.toJSON(), { maxHoldMs: 30_000, leaseMs: 600 })).toMatchObject({
      state: "kept",
    });
    await new Promise((resolve) => setTimeout(resolve, 3_100));
    expect(await lockClient(prefix).lock("job").isLocked()).toBe(true);
    const status = await client.release(held.toJSON());
    expect(status.state).toBe("released");
    expect(status.renewals).toBeGreaterThanOrEqual(12);
    console.info(`[lease-keeper over HTTP] lease 600 ms, ~3100 ms: ${status.renewals} renewals`);
    expect(await lockClient(prefix).lock("job").isLocked()).toBe(false);
  });
});
