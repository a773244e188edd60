import { describe, expect, it } from "vitest";
import { now } from "../src/engine/clock.ts";
import { LeaseState } from "../src/lease/lease-state.ts";

// Found by the adversarial campaign (control of a mutation world): a hold on a 4.8 s lease was
// extended to 33 ms; the extend's reply came after that in-doubt bound had passed (the lease was
// lost), and the late confirmation cleared the bound without confirming, so `deadline` went back
// to the grant's 4.8 s. `toJSON()` then carried that `expiresAt`, and a hold resumed from it
// believed 33 ms (its `leaseMs`) on a lock the server had already freed.
describe("LeaseState after it was lost", () => {
  it("keeps the deadline it was lost at when a renewal in doubt is confirmed late", async () => {
    const sentAt = now();
    const lease = new LeaseState("l", sentAt, 60_000, () => undefined);
    lease.inDoubt(now(), 5);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(lease.signal.aborted).toBe(true);
    const lostWith = lease.deadline;
    expect(lostWith).toBeLessThan(sentAt + 60_000);
    lease.renewed(now() - 15, 5);
    expect(lease.deadline).toBe(lostWith);
    expect(lease.active).toBe(false);
  });

  it("still moves to a renewal's confirmation while it holds", () => {
    const sentAt = now();
    const lease = new LeaseState("l", sentAt, 60_000, () => undefined);
    lease.inDoubt(sentAt, 30_000);
    expect(lease.deadline).toBe(sentAt + 30_000);
    lease.renewed(sentAt, 40_000);
    expect(lease.deadline).toBe(sentAt + 40_000);
    lease.finish();
  });
});
