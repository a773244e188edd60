import { describe, expect, it } from "vitest";
import * as fair from "../src/fair-lock/scripts.generated.ts";
import * as rw from "../src/read-write-lock/scripts.generated.ts";
import { eventsOf } from "./support.ts";
import { useFaultStack } from "./fault-stack.ts";

// Exactly-once for the fair and read-write locks: a response lost after the script ran is retried
// with the same operation id, and the operation record makes the retry answer without re-applying.
const { stack: current, make } = useFaultStack();

describe("exactly-once over a faulty HTTP path: fair and read-write locks", () => {
  for (const kind of ["drop-after", "fail-after"] as const) {
    it(`fair acquire and release whose responses are lost (${kind}) apply once`, async () => {
      const { client, events } = make();
      const lock = client.fairLock("fair");
      await (await lock.acquire()).release(); // scripts loaded: each fault hits a script that runs
      const outer = await lock.acquire();
      await current().faults.add({ kind, match: fair.acquireScript.sha });
      const inner = await lock.acquire();
      expect(await lock.holdCount()).toBe(2);
      await current().faults.add({ kind, match: fair.releaseScript.sha });
      await inner.release();
      expect(await lock.holdCount()).toBe(1);
      await outer.release();
      expect(await lock.isLocked()).toBe(false);
      expect(eventsOf(events, "retried").length).toBeGreaterThanOrEqual(2);
    });

    it(`read and write acquire/release whose responses are lost (${kind}) apply once`, async () => {
      const { client, events } = make();
      const lock = client.readWriteLock("rw");
      await (await lock.read.acquire()).release(); // scripts loaded: each fault hits a script that runs
      await (await lock.write.acquire()).release();
      await current().faults.add({ kind, match: rw.acquireReadScript.sha });
      const r1 = await lock.read.acquire();
      const r2 = await lock.read.acquire();
      expect(await lock.read.holdCount()).toBe(2);
      await current().faults.add({ kind, match: rw.releaseReadScript.sha });
      await r2.release();
      expect(await lock.read.holdCount()).toBe(1);
      await r1.release();
      expect(await lock.read.isLocked()).toBe(false);
      await current().faults.add({ kind, match: rw.acquireWriteScript.sha });
      const w = await lock.write.acquire();
      expect(await lock.write.holdCount()).toBe(1);
      await current().faults.add({ kind, match: rw.releaseWriteScript.sha });
      await w.release();
      expect(await lock.write.isLocked()).toBe(false);
      expect(eventsOf(events, "retried").length).toBeGreaterThanOrEqual(4);
    });
  }
});
