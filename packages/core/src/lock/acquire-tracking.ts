import type { PendingClaim } from "../wait/pushed-grant.ts";

// Per handle (keyed by its map of holds, a Lock's or a multi-lock's): acquires in flight, and
// early grants not yet claimed.
export const inFlight = new WeakMap<object, number>();
const unclaimed = new WeakMap<object, Set<PendingClaim>>();

/**
 * Marks an acquire on this handle as running; returns the function that ends it. A nested
 * acquire first waits for the claim of an early grant: reaching the server before it, it would
 * take the unclaimed grant as its own claim, and two holds would share a count of one. A claim
 * deferred until the hold outlives the grant (see `claimDelayMs`) is sent now.
 */
export async function beginAcquire(holds: object): Promise<() => void> {
  const pending = unclaimed.get(holds);
  if (pending && pending.size > 0) {
    for (const claim of pending) claim.hurry();
    await Promise.allSettled([...pending].map((claim) => claim.done));
  }
  inFlight.set(holds, (inFlight.get(holds) ?? 0) + 1);
  return () => inFlight.set(holds, (inFlight.get(holds) ?? 1) - 1);
}

/** The deferred claim of a hold of this handle, tracked until it is sent or dropped. */
export function trackClaim(
  holds: object,
  hold: { pendingClaim: PendingClaim | undefined },
  claim: PendingClaim,
): void {
  const pending = unclaimed.get(holds) ?? new Set();
  unclaimed.set(holds, pending);
  pending.add(claim);
  hold.pendingClaim = claim;
  void claim.done.finally(() => {
    pending.delete(claim);
    if (hold.pendingClaim === claim) hold.pendingClaim = undefined;
  });
}
