import { keyPrefix } from "@edgelock/testkit";
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import {
  bindingTransport,
  httpTransport,
  leaseKeeperClient,
  leaseKeeperWorker,
  leaseObjectName,
} from "../src/index.ts";
import { fixedLease, keeper, keeperStub } from "./workerd/support.ts";

describe.concurrent("LeaseKeeper authentication", () => {
  it("every request without the shared secret gets 401, and changes nothing", async () => {
    const { lease } = await fixedLease(keyPrefix(), "auth");
    const stub = await keeperStub(lease);
    const path = `https://lease-keeper/v1/leases/${await leaseObjectName(lease)}`;
    for (const headers of [
      {},
      { authorization: "Bearer wrong" },
      { authorization: `Bearer ${env.EDGELOCK_KEEPER_SECRET}x` },
      { authorization: env.EDGELOCK_KEEPER_SECRET },
    ]) {
      for (const op of ["keep", "heartbeat", "release", "status"]) {
        const response = await stub.fetch(`${path}/${op}`, {
          method: "POST",
          headers,
          body: JSON.stringify({ lease, maxHoldMs: 1_000 }),
        });
        expect(response.status, `${op} with ${JSON.stringify(headers)}`).toBe(401);
      }
    }
    expect((await keeper().status(lease)).state).toBe("unknown");
    const wrong = leaseKeeperClient(bindingTransport(env.LEASE_KEEPER as never, "not-the-secret"));
    await expect(wrong.keep(lease, { maxHoldMs: 1_000 })).rejects.toThrow(
      /401.*EDGELOCK_KEEPER_SECRET/,
    );
  });

  it("the front Worker checks the secret, then forwards to the lease's object", async () => {
    const { lease } = await fixedLease(keyPrefix(), "front");
    const front = leaseKeeperWorker();
    const viaFront = (secret: string) =>
      leaseKeeperClient(
        httpTransport({
          url: "https://keeper.example",
          secret,
          fetch: async (input, init) => front.fetch(new Request(input, init), env),
        }),
      );
    await expect(viaFront("nope").status(lease)).rejects.toThrow(/HTTP 401/);
    expect(
      await viaFront(env.EDGELOCK_KEEPER_SECRET).keep(lease, { maxHoldMs: 10_000, leaseMs: 600 }),
    ).toMatchObject({ state: "kept" });
    expect(await keeper().release(lease)).toMatchObject({ state: "released" });
    const unknownPath = await front.fetch(
      new Request("https://keeper.example/other", {
        method: "POST",
        headers: { authorization: `Bearer ${env.EDGELOCK_KEEPER_SECRET}` },
      }),
      env,
    );
    expect(unknownPath.status).toBe(404);
  });

  it("the client refuses plain http to a remote host and a hand-over without maxHoldMs", async () => {
    expect(() => httpTransport({ url: "http://keeper.example", secret: "s" })).toThrow(/https/);
    const { lease } = await fixedLease(keyPrefix(), "no-max");
    await expect(keeper().keep(lease, {} as never)).rejects.toThrow(/maxHoldMs/);
  });
});
