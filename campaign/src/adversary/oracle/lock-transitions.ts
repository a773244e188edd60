import type { Execution, ResourceState } from "../history.ts";
import { BOUNDARY_TOLERANCE_MS } from "./violation.ts";

type LockState = Extract<ResourceState, { kind: "lock" }>;

export const FREE: LockState = {
  kind: "lock",
  owner: null,
  fence: 0,
  count: 0,
  reserved: false,
  expiresAt: null,
};

/** What one script run did to a lock, read off the states before and after it. */
export interface LockTransition {
  readonly execution: Execution;
  /** Holds granted by this run (a new hold, a re-entry, a claimed direct grant), and to whom. */
  readonly granted: number;
  /** Holds this run released (expiry is not a release). */
  readonly released: number;
  readonly owner: string | null;
  readonly fence: number;
  /** The hold before the run ended by expiry before the run could see it. */
  readonly expiredBefore: boolean;
}

const RELEASING = /\/(release|abandon|force-unlock|forceUnlock)/;

/**
 * A copy the protocol refused unapplied (`LATE` −100, `TOMBSTONED` −101) changed nothing: a hold
 * gone after it had run out by its lease while the run was in flight.
 */
export function refusedUnapplied(e: Execution): boolean {
  return Array.isArray(e.reply) && (e.reply[0] === -100 || e.reply[0] === -101);
}

/**
 * Walks one lock's runs in execution order. The state before a run is the previous snapshot,
 * unless its lease surely ended before the run was sent (and the run did not find it still there).
 */
export function lockTransitions(
  executions: readonly Execution[],
  /** The owner of the call a run belongs to: a release or an abandon ends only its owner's hold. */
  ownerOf: (intent: number) => string | undefined = () => undefined,
): LockTransition[] {
  let prev: LockState = FREE;
  const out: LockTransition[] = [];
  // Operations that released something already (a copy of one that runs again is a repeat).
  const releasedBy = new Set<string>();
  for (const e of executions) {
    const after = e.state as LockState;
    // Still there after the run (owner and fence: a fence is never granted twice), it had not
    // ended at the server when the run ran, whatever the probe's ms-grained expiry said.
    const survived =
      prev.owner !== null && after.owner === prev.owner && after.fence === prev.fence;
    const ended = !survived && prev.owner !== null && prev.expiresAt !== null;
    // A repeat of a release that applied already, finding the hold gone when its lease ran out
    // while the copy was in flight (sent before the expiry, the server's time after the run past
    // it): either outcome is accepted at a lease boundary, and the lease explains it.
    const repeatAtExpiry =
      ended &&
      e.opId !== null &&
      releasedBy.has(e.opId) &&
      prev.expiresAt! <= e.serverMs + BOUNDARY_TOLERANCE_MS;
    const expired = (ended && prev.expiresAt! <= e.sentAt) || repeatAtExpiry;
    const before = expired ? FREE : prev;
    let granted = 0;
    let released = 0;
    const refused = refusedUnapplied(e);
    const same =
      before.owner !== null && before.owner === after.owner && before.fence === after.fence;
    if (same) {
      const delta = after.count - before.count;
      if (delta > 0) granted += delta;
      if (delta < 0) released -= delta;
      if (before.reserved && !after.reserved) granted += 1;
    } else {
      // The hold before ended here: released by this run, or it had expired as the run ran.
      const by = e.intent === null ? undefined : ownerOf(e.intent);
      const own = by === undefined || by === before.owner || /force/.test(e.script);
      if (before.owner !== null && RELEASING.test(e.script) && e.intent !== null && !refused && own)
        released += before.reserved ? 0 : before.count;
      // A direct grant reserved for a waiter is nobody's hold until the waiter claims it.
      if (after.owner !== null && !after.reserved) granted += after.count;
    }
    if (released > 0 && e.opId !== null) releasedBy.add(e.opId);
    out.push({
      execution: e,
      granted,
      released,
      owner: after.owner ?? before.owner,
      fence: after.owner !== null ? after.fence : before.fence,
      expiredBefore: expired,
    });
    prev = after;
  }
  return out;
}

/** The lock's state at real time `at`, as of its last run with seq ≤ `seq` (binary search). */
export function lockStateAt(executions: readonly Execution[], seq: number, at: number): LockState {
  let lo = 0;
  let hi = executions.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (executions[mid]!.seq <= seq) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  const state = found < 0 ? FREE : (executions[found]!.state as LockState);
  if (state.owner !== null && state.expiresAt !== null && state.expiresAt <= at) return FREE;
  return state;
}
