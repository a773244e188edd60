import type { AdversaryHistory, Execution, ResourceState } from "../history.ts";
import { BOUNDARY_TOLERANCE_MS } from "./violation.ts";

// Outcomes the protocol cannot prevent and that harm no one: the checks that would report them
// ask here first. Each excuse is narrow on purpose (see test/oracle-excuses.test.ts): the same
// shape with anyone acting on the hold is still a violation.

type LockState = Extract<ResourceState, { kind: "lock" }>;

/**
 * A lock grant that nobody could undo and nobody used: its call ended in an error after both its
 * reply and its settle were lost, so no client was ever told of the hold (no belief for its owner
 * and fence), no run renewed, re-entered or released it, and it ended by its own lease — before
 * the next run that found it gone, or before the run's last execution if none did. The cleanup
 * (an abandon after the outcome-unknown wait) came too late to find it; the lease bounded it.
 */
export function expiredUntouched(
  history: AdversaryHistory,
  runs: readonly Execution[],
  grant: Execution,
): boolean {
  if (grant.state.kind !== "lock" || grant.state.owner === null) return false;
  const { owner, fence, count, expiresAt } = grant.state;
  if (expiresAt === null) return false;
  const told = history.beliefs.some(
    (b) => b.resource === grant.resource && b.owner === owner && b.fence === fence,
  );
  if (told) return false;
  for (const e of runs) {
    if (e.seq <= grant.seq) continue;
    if (expiresAt <= e.sentAt) return true;
    const s = e.state as LockState;
    if (s.owner !== owner || s.fence !== fence) return false; // ended by a run while leased
    // Someone acted on it (a renewal, a re-entry, a partial release). The probe reads expiry as
    // server time + PTTL, so an untouched lease reads back within a millisecond or two.
    const moved = s.expiresAt === null || Math.abs(s.expiresAt - expiresAt) > BOUNDARY_TOLERANCE_MS;
    if (s.count !== count || moved) return false;
  }
  const end = history.executions.at(-1)?.doneAt ?? -Infinity;
  return expiresAt <= end;
}

/**
 * A hold left for an owner after it released everything it was told of, which a later abandon
 * undid: the owner's acquire (a re-entry) applied but its outcome stayed unknown, the owner
 * released what it knew of, and the background abandon of that acquire took the rest back. From
 * the first run after the release, every change to the owner's hold must be such an abandon
 * (of an intent of the same owner that did not end "ok") until the hold is gone, while still
 * leased; any other change (a re-entry, a release, expiry first) keeps the violation.
 */
export function undoneByLaterAbandon(
  history: AdversaryHistory,
  runs: readonly Execution[],
  afterSeq: number,
  owner: string,
  fence: number,
): boolean {
  const intents = new Map(history.intents.map((i) => [i.id, i]));
  const cleanup = (e: Execution) => {
    const intent = e.intent === null ? undefined : intents.get(e.intent);
    return /\/abandon/.test(e.script) && intent?.owner === owner && intent.outcome !== "ok";
  };
  let prev: LockState | null = null;
  for (const e of runs) {
    if (e.seq <= afterSeq) {
      prev = e.state as LockState;
      continue;
    }
    if (prev === null || prev.owner !== owner || prev.fence !== fence) return false;
    if (prev.expiresAt !== null && prev.expiresAt <= e.sentAt) return false; // expired first
    const s = e.state as LockState;
    const held = s.owner === owner && s.fence === fence;
    if (held && s.count === prev.count) {
      prev = s;
      continue; // this run did not change the owner's hold (a busy try, a read)
    }
    if (!cleanup(e) || (held && s.count > prev.count)) return false;
    if (!held) return true;
    prev = s;
  }
  return false;
}
