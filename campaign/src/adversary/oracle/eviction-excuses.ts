import type { AdversaryHistory, Belief, Execution } from "../history.ts";
import { serverHoldAt } from "./hold-state.ts";

/**
 * What eviction excuses (docs/guarantees.md: under any `maxmemory-policy` but `noeviction`
 * nothing is promised; `initialize()` reports the policy and cannot prevent it), and only for
 * clients that were told: a hold's key evicted, its holder believing it until its next renewal or
 * its deadline, and a new holder granted meanwhile. A client told `noeviction` (or nothing) was
 * promised mutual exclusion, and an overlap or a lease lie involving it stays a violation.
 */

/** Whether `client` had been told, by `at`, a policy that lets Redis evict keys. */
export function toldEvicting(history: AdversaryHistory, client: number | undefined, at: number) {
  if (client === undefined) return false;
  return (history.evictionTold ?? []).some(
    (t) => t.client === client && t.at <= at && t.policy !== "noeviction" && t.policy !== "unknown",
  );
}

function evictions(history: AdversaryHistory) {
  return (history.dataFaults ?? []).filter((f) => f.kind === "eviction");
}

/**
 * A lease sample eviction explains: an eviction ran after the belief was told and by this sample,
 * its holder's client had been told the policy before it, and no renewal has applied since.
 */
export function leaseLostToEviction(
  history: AdversaryHistory,
  runs: readonly Execution[],
  belief: Belief,
  seq: number,
): boolean {
  return evictions(history).some(
    (f) =>
      f.seq <= seq &&
      belief.toldAt < f.at &&
      toldEvicting(history, belief.client, f.at) &&
      !runs.some(
        (e) =>
          e.seq > f.seq &&
          e.seq <= seq &&
          e.seen &&
          /extend/.test(e.script) &&
          serverHoldAt(runs, e.seq, e.doneAt, belief).holds,
      ),
  );
}

/**
 * An overlap of `older` (told before an eviction) and `newer` (granted after it) that the docs do
 * not rule out, because both clients had been told the policy before the overlap began.
 */
export function overlapAfterEviction(
  history: AdversaryHistory,
  runs: readonly Execution[],
  older: Belief,
  newer: Belief,
): boolean {
  const grant = runs.find(
    (e) =>
      e.state.kind === "lock" && e.state.owner === newer.owner && e.state.fence === newer.fence,
  );
  if (grant === undefined) return false;
  return evictions(history).some(
    (f) =>
      older.toldAt < f.at &&
      f.seq < grant.seq &&
      toldEvicting(history, older.client, grant.sentAt) &&
      toldEvicting(history, newer.client, grant.sentAt),
  );
}
