import { keyPrefix } from "@edgelock/testkit";
import { describe, expect, it } from "vitest";
import { resolveBackend, type Backend, type ClientOptions } from "../../src/index.ts";
import { permitSemaphoreKeys } from "../../src/keys.ts";
import { delay, makeTestClient } from "../support.ts";
import type { RegressionTarget } from "./lock-regressions.ts";

/**
 * What the adversarial campaign found on the PermitExpirableSemaphore (issue 13): a resumed
 * permit trusted the wall-clock `expiresAt` another machine wrote, so its holder believed in a
 * lease the server did not have (the Lock's `resume` already discounted twice the clock bound).
 */
export function runPermitSemaphoreRegressions(target: RegressionTarget): void {
  describe(`PermitExpirableSemaphore protocol regressions (issue 13): ${target.name}`, () => {
    const make = async (options: Omit<ClientOptions, "redis"> = {}) => {
      const backend = resolveBackend(await target.makeRedis());
      const prefix = keyPrefix();
      return { ...makeTestClient(backend, { prefix, ...options }), backend, prefix };
    };
    /** What the server has left of permit `id`'s lease, ms. */
    const serverLeft = async (backend: Backend, prefix: string, name: string, id: string) => {
      const signal = new AbortController().signal;
      const key = permitSemaphoreKeys(prefix, name).permits;
      const expiry = Number(await backend.command(["ZSCORE", key, id], signal));
      const [s, us] = (await backend.command(["TIME"], signal)) as [string, string];
      return expiry - (Number(s) * 1000 + Number(us) / 1000);
    };

    it("a resumed permit is not trusted beyond the server's lease from another machine's clock", async () => {
      const { client, backend, prefix } = await make({ clockErrorMs: 1_000 });
      const semaphore = client.permitExpirableSemaphore("pes");
      await semaphore.trySetPermits(1);
      const permit = await semaphore.acquire({ leaseMs: 10_000 });
      // Serialized on a machine whose wall clock runs 1.5 s fast (within 2 × clockErrorMs of ours).
      const json = { ...permit.toJSON(), expiresAt: permit.toJSON().expiresAt + 1_500 };
      const resumed = client.permitExpirableSemaphore("pes").resume(json);
      const left = () => serverLeft(backend, prefix, "pes", permit.id);
      expect(resumed.toJSON().expiresAt - Date.now()).toBeLessThanOrEqual((await left()) + 50);
      await resumed.extend(5_000); // a confirmed renewal: trusted from here
      expect(resumed.toJSON().expiresAt - Date.now()).toBeLessThanOrEqual((await left()) + 50);
      await resumed.release();
      expect(await semaphore.availablePermits()).toBe(1);
    });

    it("a resumed permit whose hint is already past still extends: its renewal makes it trusted", async () => {
      const { client } = await make({ clockErrorMs: 1_000 });
      const semaphore = client.permitExpirableSemaphore("pes-short");
      await semaphore.trySetPermits(1);
      const permit = await semaphore.acquire({ leaseMs: 1_500 });
      const resumed = client.permitExpirableSemaphore("pes-short").resume(permit.toJSON());
      await resumed.extend(5_000);
      await resumed.extend(6_000); // confirmed once already: still reaches the server
      expect(await semaphore.availablePermits()).toBe(0);
      await resumed.release();
      expect(await semaphore.availablePermits()).toBe(1);
    });
    it("finding 7 on a permit: a kept-alive permit extended to a shorter lease is renewed at a third of it", async () => {
      // The keeper went on renewing at a third of the first lease (1 s): the 600 ms lease ran
      // out first, with no fault at all.
      const { client } = await make({ leaseMs: 3_000 });
      const semaphore = client.permitExpirableSemaphore("pes-keeper");
      await semaphore.trySetPermits(1);
      const permit = await semaphore.acquire(); // kept alive
      await permit.extend(600);
      await delay(2_000);
      expect(permit.signal.aborted).toBe(false);
      expect(await semaphore.availablePermits()).toBe(0);
      await permit.release();
      expect(await semaphore.availablePermits()).toBe(1);
    });
  });
}
