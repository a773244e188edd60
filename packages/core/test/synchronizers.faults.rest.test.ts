import { describe, expect, it } from "vitest";
import { OutcomeUnknownError } from "../src/index.ts";
import { settleScript } from "../src/engine/scripts.generated.ts";
import { countDownScript } from "../src/latch/scripts.generated.ts";
import * as pes from "../src/permit-semaphore/scripts.generated.ts";
import * as sem from "../src/semaphore/scripts.generated.ts";
import { eventsOf } from "./support.ts";
import { useFaultStack } from "./fault-stack.ts";

// Semaphores and latch over a faulty HTTP path: a response lost after the script ran is retried
// under the same operation id, and the script answers from its record instead of applying again.
const { stack: current, make } = useFaultStack();

describe("semaphores and latch: exactly once over a faulty HTTP path", () => {
  for (const kind of ["drop-after", "fail-after"] as const) {
    it(`semaphore acquire, release and addPermits whose responses are lost (${kind}) apply once`, async () => {
      const { client, events } = make();
      const s = client.semaphore("sem");
      await s.trySetPermits(3);
      await current().faults.add({ kind, match: sem.acquireScript.sha });
      const hold = await s.acquire({ permits: 2 });
      expect(eventsOf(events, "retried").length).toBeGreaterThanOrEqual(1);
      expect(await s.availablePermits()).toBe(1);
      await current().faults.add({ kind, match: sem.releaseScript.sha });
      await hold.release();
      await current().faults.add({ kind, match: sem.addPermitsScript.sha });
      await s.addPermits(1);
      expect(await s.status()).toMatchObject({ available: 4, total: 4 });
    });

    it(`permit acquire and release whose responses are lost (${kind}) apply once`, async () => {
      const { client } = make();
      const s = client.permitExpirableSemaphore("pes");
      await s.trySetPermits(2);
      await current().faults.add({ kind, match: pes.acquireScript.sha });
      const permit = await s.acquire({ leaseMs: 10_000 });
      expect(await s.status()).toMatchObject({ available: 1, live: 1 });
      await current().faults.add({ kind, match: pes.releaseScript.sha });
      await permit.release();
      expect(await s.status()).toMatchObject({ available: 2, live: 0 });
    });

    it(`countDown whose response is lost (${kind}) counts once`, async () => {
      const { client } = make();
      const latch = client.countDownLatch("latch");
      await latch.trySetCount(3);
      await current().faults.add({ kind, match: countDownScript.sha });
      expect(await latch.countDown()).toBe(2);
      expect(await latch.getCount()).toBe(2);
    });
  }

  it("an acquire whose outcome stays unknown is abandoned: its permits come back", async () => {
    const { client } = make({ retryWindowMs: 300, requestTimeoutMs: 1_000 });
    const s = client.semaphore("unknown");
    await s.trySetPermits(2);
    await current().faults.add({ kind: "drop-after", times: 50, match: sem.acquireScript.sha });
    // the settle fails too (otherwise it finds the grant and the caller gets it)
    await current().faults.add({ kind: "fail-before", times: 50, match: settleScript.sha });
    await expect(s.acquire({ permits: 2 })).rejects.toBeInstanceOf(OutcomeUnknownError);
    await current().faults.clear();
    await client.settled();
    expect(await s.availablePermits()).toBe(2);
  });

  it("an acquire whose every response is lost is settled: the caller gets the permits it took", async () => {
    const { client } = make({ retryWindowMs: 300, requestTimeoutMs: 1_000 });
    const s = client.semaphore("settled");
    await s.trySetPermits(2);
    await current().faults.add({ kind: "drop-after", times: 50, match: sem.acquireScript.sha });
    const hold = await s.acquire({ permits: 2 });
    await current().faults.clear();
    expect(await s.availablePermits()).toBe(0);
    await hold.release();
    expect(await s.availablePermits()).toBe(2);
  });

  it("a permit acquire whose outcome stays unknown is abandoned: the permit comes back", async () => {
    const { client } = make({ retryWindowMs: 300, requestTimeoutMs: 1_000 });
    const s = client.permitExpirableSemaphore("unknown-pes");
    await s.trySetPermits(1);
    await current().faults.add({ kind: "drop-after", times: 50, match: pes.acquireScript.sha });
    // the settle fails too (otherwise it finds the grant and the caller gets it)
    await current().faults.add({ kind: "fail-before", times: 50, match: settleScript.sha });
    await expect(s.acquire({ leaseMs: 60_000 })).rejects.toBeInstanceOf(OutcomeUnknownError);
    await current().faults.clear();
    await client.settled();
    expect(await s.status()).toMatchObject({ available: 1, live: 0 });
  });
});
