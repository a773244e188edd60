import type { PendingClaim } from "../wait/pushed-grant.ts";

// Per handle (keyed by its map of holds, a Lock's or a multi-lock's): acquires in flight, and
// early grants not yet claimed.
export const inFlight = new WeakMap<object, number>();
const unclaimed = new WeakMap<object, Set<PendingClaim>>();

const undoing = new WeakMap<object, Set<Promise<void>>>();

/**
 * An undo this handle sent in the background (the abandon of a wait's queued attempt: a leave, a
 * rollback). It also gives back a direct grant made to the owner, and cannot tell that grant from
 * one made to a later wait of the same handle: landing after a later wait entered on its grant
 * (unclaimed), it would take it from under its holder. So the handle's next acquire waits until
 * it has settled: answered, or failed for good (no copy of it can still apply).
 */
export function trackUndo(handle: object, work: Promise<unknown>): void {
  const pending = undoing.get(handle) ?? new Set();
  undoing.set(handle, pending);
  const settled: Promise<void> = work
    .then(
      () => undefined,
      () => undefined,
    )
    .then(() => {
      pending.delete(settled);
    });
  pending.add(settled);
}

/** Resolves once every undo `trackUndo` holds for this handle has settled. */
export async function undosSettled(handle: object): Promise<void> {
  const pending = undoing.get(handle);
  if (pending && pending.size > 0) await Promise.all([...pending]);
}

/**
 * Marks an acquire on this handle as running; returns the function that ends it. It first waits
 * for the handle's undos (`trackUndo`). A nested acquire also waits for the claim of an early
 * grant: reaching the server before it, it would take the unclaimed grant as its own claim, and
 * two holds would share a count of one. A claim deferred until the hold outlives the grant (see
 * `claimDelayMs`) is sent now.
 */
export async function beginAcquire(holds: object): Promise<() => void> {
  await undosSettled(holds);
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
