import type { AdversaryHistory, Belief, Execution, ResourceState } from "../history.ts";
import { undoneByLaterAbandon } from "./excuses.ts";
import { serverHoldAt } from "./hold-state.ts";
import { finalProblemOfKind } from "./final-kinds.ts";
import type { GrantLedger } from "./grant-ledger.ts";
import { permitsInDoubt } from "./semaphore-checks.ts";
import type { AdversaryViolation } from "./violation.ts";

/**
 * Once an owner has released every hold it was told of on a lock, the server must not hold that
 * lock for that owner and fence any more (a leftover count is a hold nobody was told about),
 * unless the background abandon of that owner's acquire left in doubt takes it back next. An
 * owner with a release of that hold still in doubt (it ended in an error) was not told it
 * released everything: the level it may not have released runs out with the lease.
 */
export function checkLeakedHolds(
  history: AdversaryHistory,
  byResource: ReadonlyMap<string, readonly Execution[]>,
): AdversaryViolation[] {
  const out: AdversaryViolation[] = [];
  for (const intent of history.intents) {
    const releasing = intent.kind === "release" || intent.kind === "permit-release";
    if (!releasing || intent.outcome !== "ok" || intent.endedAt === null) continue;
    const belief = history.beliefs[intent.holdId!]!;
    const end = intent.endedAt;
    const stillTold = history.beliefs.some(
      (b) =>
        b.resource === belief.resource &&
        b.owner === belief.owner &&
        b.fence === belief.fence &&
        b.toldAt <= end &&
        (b.releasedAt === null || b.releasedAt >= end),
    );
    if (stillTold || releaseInDoubt(history, belief, end)) continue;
    const runs = byResource.get(belief.resource) ?? [];
    const last = runs.filter((e) => e.doneAt <= end).at(-1);
    if (!last) continue;
    if (!serverHoldAt(runs, last.seq, end, belief).holds) continue;
    if (undoneByLaterAbandon(history, runs, last.seq, belief)) continue;
    out.push({
      class: "leaked-hold",
      resource: belief.resource,
      intent: intent.id,
      holdId: belief.holdId,
      seq: last.seq,
      detail: `owner released all it was told of (fence ${belief.fence}); the server still holds it`,
    });
  }
  return out;
}

/**
 * At quiescence a lock may be held only by a hold whose owner knows its release failed; a
 * semaphore must have every permit back (available + reserved = total), but those of holds whose
 * release stayed in doubt and never applied (`permitsInDoubt`).
 */
export function checkFinal(history: AdversaryHistory, ledger: GrantLedger): AdversaryViolation[] {
  const out: AdversaryViolation[] = [];
  for (const [resource, state] of Object.entries(history.final)) {
    const detail = finalProblem(history, ledger, resource, state);
    if (detail !== null) out.push({ class: "final-state", resource, detail });
  }
  return out;
}

function finalProblem(
  history: AdversaryHistory,
  ledger: GrantLedger,
  resource: string,
  state: ResourceState,
): string | null {
  if (state.kind === "semaphore") {
    const have = state.available + state.reserved;
    const stuck = permitsInDoubt(history, ledger, resource);
    if (have === state.total - stuck) return null;
    return `${have} of ${state.total} permits back${stuck > 0 ? ` (${stuck} in holds whose release stayed in doubt)` : ""}`;
  }
  if (state.kind !== "lock") return finalProblemOfKind(history, resource, state);
  if (state.owner === null) return null;
  // A lease (or a direct grant's reservation) ending within 1 ms of the final probe: either
  // outcome is right at a boundary (a reservation that lapsed at 80 670 read at 80 670.6 once).
  if (
    state.expiresAt !== null &&
    history.finalAt !== undefined &&
    state.expiresAt <= history.finalAt + 1
  )
    return null;
  const holds = history.beliefs.filter(
    (b) => b.resource === resource && b.owner === state.owner && b.fence === state.fence,
  );
  if (holds.length === 0)
    return `held (fence ${state.fence}, count ${state.count}) by an owner never told of it`;
  const failed = history.intents.some(
    (i) =>
      i.kind.includes("release") && i.outcome !== "ok" && holds.some((b) => b.holdId === i.holdId),
  );
  return failed
    ? null
    : `held (fence ${state.fence}, count ${state.count}) after every hold was released`;
}

/**
 * In a run without faults, a kept-alive hold is never lost while its holder still acts on it —
 * unless the world itself held a renewal back: a renewal of the hold handed to the world in
 * time (its own round trip would have ended before the loss) but sent to the server only after
 * the loss, because every script run waits its turn behind the others and their probes (on a
 * loaded machine, a second and more). That is a delay the world injected, not the client's doing.
 */
export function checkLostWithoutFault(history: AdversaryHistory): AdversaryViolation[] {
  if (history.faults) return [];
  return history.beliefs
    .filter(
      (b) =>
        b.keepAlive &&
        b.abortedAt !== null &&
        b.abortReason !== "max-hold" &&
        (b.releasedAt === null || b.abortedAt < b.releasedAt) &&
        !heldBackByTheWorld(history, b),
    )
    .map((b) => ({
      class: "lost-without-fault" as const,
      resource: b.resource,
      holdId: b.holdId,
      detail: `hold ${b.holdId}${b.keepAlive ? " (kept alive)" : ""} lost (${b.abortReason}) with no fault injected`,
    }));
}

/** A release call of this hold (owner, fence, resource) ended in an error before `end`. */
function releaseInDoubt(history: AdversaryHistory, belief: Belief, end: number): boolean {
  return history.intents.some((i) => {
    if (!i.kind.includes("release") || i.outcome === "ok" || i.endedAt === null) return false;
    if (i.endedAt > end || i.holdId === null) return false;
    const b = history.beliefs[i.holdId];
    return (
      b !== undefined &&
      b.resource === belief.resource &&
      b.owner === belief.owner &&
      b.fence === belief.fence
    );
  });
}

/**
 * A renewal of `b` queued in the world in time for its deadline and run there too late; or a
 * call of its owner that timed out before the loss (it settled: a request of a calm world held
 * past the request timeout is a fault too — a re-entry answered 2 s after its send leaves its
 * hold a lease counted from that send, and a keeper that renews at a third of it, too late).
 */
function heldBackByTheWorld(history: AdversaryHistory, b: Belief): boolean {
  const lostAt = b.abortedAt!;
  const owners = new Set(history.intents.filter((i) => i.owner === b.owner).map((i) => i.id));
  return history.executions.some(
    (e) =>
      (e.subject === b.owner &&
        e.script.includes("extend") &&
        e.queuedAt !== undefined &&
        e.queuedAt + (e.doneAt - e.sentAt) < lostAt &&
        e.doneAt > lostAt) ||
      (e.script === "engine/settle" &&
        e.intent !== null &&
        owners.has(e.intent) &&
        (e.queuedAt ?? e.sentAt) < lostAt),
  );
}
