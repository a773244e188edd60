import type { AdversaryHistory, Belief, Execution, ResourceState } from "../history.ts";
/**
 * How far apart two probes may read one untouched lease: each reads it as the server time (µs)
 * plus PTTL (whole ms, truncated), read a moment apart; 4415, 4413 and 4416 were seen for one.
 * A renewal moves it by the time since the last one, far more.
 */
export const PROBE_JITTER_MS = 5;

// Outcomes the protocol cannot prevent and that harm no one: the checks that would report them
// ask here first. Each excuse is narrow on purpose (see test/oracle-excuses.test.ts): the same
// shape with anyone acting on the hold is still a violation.

type LockState = Extract<ResourceState, { kind: "lock" }>;

/**
 * A lock grant that nobody could undo and nobody used: its call ended in an error after both its
 * reply and its settle were lost, so the cleanup (an abandon after the outcome-unknown wait) came
 * too late to find it, and the lease bounded it. Excused only when no client was told of the hold
 * from the grant on (an owner that already held it, before a re-entry, may still believe in it),
 * no run renewed, re-entered or released it, and it ended by its own lease: gone at a run that
 * cannot release (its lease over by the probe right after), or by the end of the run.
 */
export function expiredUntouched(
  history: AdversaryHistory,
  runs: readonly Execution[],
  grant: Execution,
): boolean {
  if (grant.state.kind !== "lock" || grant.state.owner === null) return false;
  const { owner, fence, count, expiresAt } = grant.state;
  if (expiresAt === null) return false;
  if (toldOfIt(history, grant.resource, owner, fence, grant.sentAt, expiresAt, grant.intent))
    return false;
  for (const e of runs) {
    if (e.seq <= grant.seq) continue;
    if (expiresAt <= e.sentAt) return true;
    const s = e.state as LockState;
    if (s.owner !== owner || s.fence !== fence)
      // Gone at this run: by its lease only if the run cannot release and the lease was over
      // when the state was read (a slow run straddles the expiry); else it ended it.
      return !canRelease(history, e, owner) && expiresAt <= e.serverMs;
    // Someone acted on it (a renewal, a re-entry, a partial release). The probe reads expiry as
    // server time + PTTL, so an untouched lease reads back within a millisecond or two.
    const moved = s.expiresAt === null || Math.abs(s.expiresAt - expiresAt) > PROBE_JITTER_MS;
    if (s.count !== count || moved) return false;
  }
  const end = history.executions.at(-1)?.doneAt ?? -Infinity;
  return expiresAt <= end;
}

/**
 * Whether a client was told of the hold (`owner`, and `fence` unless null) between `from` and
 * `until` and believed in it at all: a hold resumed from `toJSON()` whose signal aborted as it
 * was told (its carried expiry already too close) never acted on it.
 */
export function toldOfIt(
  history: AdversaryHistory,
  resource: string,
  owner: string,
  fence: number | null,
  from: number,
  until: number,
  grantIntent: number | null = null,
): boolean {
  // A hold an earlier call was told of (the owner's first acquire, before this re-entry) is not
  // this grant's, even when told within the same millisecond as this grant's request was sent.
  const call = grantIntent === null ? undefined : history.intents[grantIntent];
  const earlier = (b: Belief) =>
    call !== undefined &&
    history.intents.some(
      (i) =>
        i.holdId === b.holdId &&
        i.id !== call.id &&
        TELLING.has(i.kind) &&
        i.endedAt !== null &&
        i.endedAt <= call.startedAt,
    );
  return history.beliefs.some(
    (b) =>
      b.resource === resource &&
      b.owner === owner &&
      (fence === null || b.fence === fence) &&
      b.toldAt >= from &&
      b.toldAt < until &&
      Math.min(b.abortedAt ?? Infinity, b.releasedAt ?? Infinity) > b.toldAt &&
      !earlier(b),
  );
}

/** Calls that tell their caller of a new hold. */
const TELLING = new Set(["tryAcquire", "acquire", "reenter", "sem-acquire", "permit-acquire"]);

/**
 * Whether run `e` could have ended `owner`'s hold: a force-unlock could; a release or an abandon
 * only for its own owner (they check the owner), so one by another owner's call could not.
 */
export function canRelease(history: AdversaryHistory, e: Execution, owner: string): boolean {
  if (/\/(force-unlock|forceUnlock)/.test(e.script)) return true;
  if (!/\/(release|abandon)/.test(e.script)) return false;
  const by = e.intent === null ? undefined : history.intents.find((i) => i.id === e.intent);
  return by === undefined || by.owner === owner;
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
  belief: Pick<Belief, "owner" | "fence" | "mode">,
): boolean {
  const { owner, fence } = belief;
  const intents = new Map(history.intents.map((i) => [i.id, i]));
  const cleanup = (e: Execution) => {
    const intent = e.intent === null ? undefined : intents.get(e.intent);
    return /\/abandon/.test(e.script) && intent?.owner === owner && intent.outcome !== "ok";
  };
  let prev: HoldView | null = null;
  for (const e of runs) {
    if (e.seq <= afterSeq) {
      prev = holdView(e.state, belief);
      continue;
    }
    if (prev === null || prev.owner !== owner || prev.fence !== fence) return false;
    if (prev.expiresAt !== null && prev.expiresAt <= e.sentAt) return false; // expired first
    const s = holdView(e.state, belief);
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

/** One owner's hold as a state shows it, whatever the kind: its owner, fence, count and lease end. */
type HoldView = Pick<LockState, "owner" | "fence" | "count" | "expiresAt">;

/**
 * The hold `belief` speaks of in a state: a Lock's (or FairLock's) hash, a read-write lock's
 * writer, or the owner's read session (seen in the gate: a writer's re-entry, its outcome
 * unknown, undone by its abandon 5 ms after the owner released the hold it knew of).
 */
function holdView(state: ResourceState, belief: Pick<Belief, "owner" | "mode">): HoldView {
  if (state.kind === "lock") return state;
  if (state.kind !== "read-write-lock") return FREE_VIEW;
  if (belief.mode !== "read") return state.writer;
  const r = state.readers[belief.owner];
  return r
    ? { owner: belief.owner, fence: r.fence, count: r.count, expiresAt: r.expiresAt }
    : FREE_VIEW;
}

const FREE_VIEW: HoldView = { owner: null, fence: 0, count: 0, expiresAt: null };
