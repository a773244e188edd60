import type { AdversaryHistory, Belief, ResourceState } from "../history.ts";
import { clockSteps } from "./server-clock.ts";
import type { AdversaryViolation, AdversaryViolationClass } from "./violation.ts";

/**
 * What a forward step of the server's clock excuses (docs/guarantees.md, "Server clock steps"):
 * Redis ends every lease, claim window and poll deadline early by the step, so a holder may
 * believe a lease the server already ended (and another client be granted), a queued waiter may
 * lose its place, and a call in flight may find its deadline passed: a cleanup (abandon) refused
 * as late leaves what the call was granted until its lease ends (a Semaphore's permit for good).
 * Only for what was live across a step: the violation's span (from the hold being told, the call
 * starting or its run being sent, to the run or the call's cleanup) must contain one.
 *
 * Never excused, whatever the clock did: an operation applied twice or a grant applied for a
 * caller told otherwise after the answer (`double-grant`, `release-mismatch`, `permits-created`,
 * `count-mismatch`, `applied-after-answer`, …). A forward step never revives a deadline or a
 * record: both are judged by the same server clock, which only moved on. A backward step can
 * (docs/guarantees.md), so a world that steps back is not checked against these promises.
 */
const FORWARD_STEP_EXCUSES: ReadonlySet<AdversaryViolationClass> = new Set([
  "dishonest-lease",
  "stale-renewal",
  "renewal-race",
  "dishonest-resume",
  "unresolved-renewal",
  "overlap",
  "over-capacity",
  "lost-place",
  "lost-without-fault",
  "orphan-hold",
  "phantom-grant",
  "leaked-hold",
  "told-not-applied",
]);

/** How long after its call ended a cleanup (abandon, settle) may still run and be refused. */
const CLEANUP_SPAN_MS = 1_000;

/** The violations a forward server clock step explains, and the rest (which stand). */
export function excuseClockSteps(
  history: AdversaryHistory,
  violations: readonly AdversaryViolation[],
): { stand: AdversaryViolation[]; excused: AdversaryViolation[] } {
  const forward = clockSteps(history).filter((s) => (s.stepMs ?? 0) > 0);
  if (forward.length === 0) return { stand: [...violations], excused: [] };
  const stand: AdversaryViolation[] = [];
  const excused: AdversaryViolation[] = [];
  for (const v of violations) {
    const span = FORWARD_STEP_EXCUSES.has(v.class) ? spanOf(history, v) : null;
    if (span !== null && forward.some((s) => s.at >= span.from && s.at <= span.to)) excused.push(v);
    else stand.push(v);
  }
  // At quiescence: a lock still held or a permit missing, on a resource where an excused grant
  // was left (its cleanup refused), is that grant's doing; anywhere else it stands.
  const left = new Set(excused.map((v) => v.resource));
  return {
    stand: stand.filter((v) => {
      if (v.class !== "final-state" || !left.has(v.resource)) return true;
      excused.push(v);
      return false;
    }),
    excused,
  };
}

/** Whether a logged state shows the believed hold (its owner and fence, or its permit). */
function shows(state: ResourceState, belief: Belief): boolean {
  switch (state.kind) {
    case "lock":
      return state.owner === belief.owner && state.fence === belief.fence;
    case "read-write-lock":
      return belief.mode === "read"
        ? state.readers[belief.owner]?.fence === belief.fence
        : state.writer.owner === belief.owner && state.writer.fence === belief.fence;
    case "permit-expirable-semaphore":
      return belief.owner in state.permits;
    default:
      return false;
  }
}

/** From the earliest to the latest moment the violation involves (null: it names none). */
function spanOf(
  history: AdversaryHistory,
  v: AdversaryViolation,
): { from: number; to: number } | null {
  const from: number[] = [];
  const to: number[] = [];
  const run = v.seq === undefined ? undefined : history.executions[v.seq];
  if (run) {
    from.push(run.requestedAt ?? run.sentAt);
    to.push(run.doneAt);
  }
  const intent = v.intent === undefined ? undefined : history.intents[v.intent];
  if (intent) {
    from.push(intent.startedAt);
    to.push((intent.endedAt ?? Infinity) + CLEANUP_SPAN_MS);
  }
  for (const holdId of [v.holdId, v.olderHoldId]) {
    const belief =
      holdId === undefined ? undefined : history.beliefs.find((b) => b.holdId === holdId);
    if (belief === undefined) continue;
    // From the call that asked for it: a lease is set when its grant runs, which may be before
    // a step even when the client is told after it (a settle's recorded grant).
    from.push(belief.toldAt);
    for (const i of history.intents) if (i.holdId === holdId) from.push(i.startedAt);
    const grant = history.executions.find(
      (e) => e.resource === belief.resource && shows(e.state, belief),
    );
    if (grant) from.push(grant.requestedAt ?? grant.sentAt);
    to.push(belief.releasedAt ?? belief.abortedAt ?? Infinity);
  }
  if (from.length === 0) return null;
  return { from: Math.min(...from), to: Math.max(...to) };
}
