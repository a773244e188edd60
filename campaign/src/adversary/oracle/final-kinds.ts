import type { AdversaryHistory, Belief, ResourceState } from "../history.ts";

/**
 * Quiescence for the kinds beyond the Lock and the Semaphore: every hold still on the server
 * (a writer, a live reader, a live permit) belongs to a hold whose release its owner knows failed;
 * a latch whose every round was counted out is open. Leases still running are read against the
 * server time of the final probe (`history.finalAt`; absent: every listed hold counts as live).
 */
export function finalProblemOfKind(
  history: AdversaryHistory,
  resource: string,
  state: ResourceState,
): string | null {
  const at = history.finalAt ?? 0;
  const problems: string[] = [];
  const check = (what: string, owner: string, fence: number | null, mode?: Belief["mode"]) => {
    const holds = history.beliefs.filter(
      (b) =>
        b.resource === resource &&
        b.owner === owner &&
        (fence === null || b.fence === fence) &&
        (mode === undefined || b.mode === mode),
    );
    if (holds.length === 0) problems.push(`${what} held by an owner never told of it`);
    else if (!releaseFailed(history, holds))
      problems.push(`${what} held after every hold was released`);
  };
  switch (state.kind) {
    case "read-write-lock":
      if (
        state.writer.owner !== null &&
        (state.writer.expiresAt ?? Infinity) > at &&
        !state.writer.reserved
      )
        check(
          `the writer (fence ${state.writer.fence})`,
          state.writer.owner,
          state.writer.fence,
          "write",
        );
      for (const [owner, r] of Object.entries(state.readers))
        if (r.expiresAt > at) check(`a read session (fence ${r.fence})`, owner, r.fence, "read");
      break;
    case "permit-expirable-semaphore":
      for (const [id, expiry] of Object.entries(state.permits))
        if (expiry > at && history.beliefs.some((b) => b.resource === resource && b.owner === id))
          check(`permit ${id.slice(0, 8)}`, id, null, "permit");
      break;
    case "count-down-latch":
      if (state.count !== 0 && !lastRoundFailed(history, resource))
        problems.push(`count ${state.count} left after its last round was counted out`);
      break;
    default:
      break;
  }
  return problems.length === 0 ? null : problems.join("; ");
}

function releaseFailed(history: AdversaryHistory, holds: readonly Belief[]): boolean {
  return history.intents.some(
    (i) =>
      i.kind.includes("release") && i.outcome !== "ok" && holds.some((b) => b.holdId === i.holdId),
  );
}

/** The latch's last round has a call that did not end "ok" (its actor gave up on the round). */
function lastRoundFailed(history: AdversaryHistory, resource: string): boolean {
  const mine = history.intents.filter((i) => i.resource === resource && i.round !== undefined);
  const last = Math.max(-1, ...mine.map((i) => i.round!));
  return mine.some((i) => i.round === last && i.outcome !== "ok");
}
