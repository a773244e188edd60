import type { Belief, Execution, LockState, ResourceState } from "../history.ts";
import { FREE } from "./lock-transitions.ts";

/** What the server holds for one belief at a moment: whether it holds that hold, and until when. */
export interface ServerHold {
  readonly holds: boolean;
  /** Server ms at which the held lease ends (when `holds`). */
  readonly end: number;
  /** What the server has instead, for a report. */
  readonly instead: string;
}

/** The state after the last run with seq ≤ `seq` (binary search; null: none yet). */
export function stateAsOf(executions: readonly Execution[], seq: number): ResourceState | null {
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
  return found < 0 ? null : executions[found]!.state;
}

/**
 * Whether the server holds `belief`'s hold at real time `at`, as of run `seq`, for every kind of
 * leased hold: a lock hash's owner and fence (Lock, FairLock, a multi-lock's part, a writer), a
 * reader's session in the readers zset (`mode` "read"), or a permit id in the permits zset.
 */
export function serverHoldAt(
  executions: readonly Execution[],
  seq: number,
  at: number,
  belief: Pick<Belief, "owner" | "fence" | "mode">,
): ServerHold {
  const state = stateAsOf(executions, seq);
  if (state === null) return { holds: false, end: at, instead: "free" };
  switch (state.kind) {
    case "lock":
      return lockHold(state, at, belief);
    case "read-write-lock": {
      if (belief.mode !== "read") return lockHold(state.writer, at, belief);
      const reader = state.readers[belief.owner];
      if (reader && reader.fence === belief.fence && reader.expiresAt > at)
        return { holds: true, end: reader.expiresAt, instead: "" };
      return { holds: false, end: at, instead: reader ? "another read session" : "no such reader" };
    }
    case "permit-expirable-semaphore": {
      const expiry = state.permits[belief.owner];
      if (expiry !== undefined && expiry > at) return { holds: true, end: expiry, instead: "" };
      return { holds: false, end: at, instead: "no such permit" };
    }
    default:
      return { holds: false, end: at, instead: `a ${state.kind}` };
  }
}

function lockHold(
  state: LockState,
  at: number,
  belief: Pick<Belief, "owner" | "fence">,
): ServerHold {
  const live =
    state.owner !== null && (state.expiresAt === null || state.expiresAt > at) ? state : FREE;
  if (live.owner === belief.owner && live.fence === belief.fence && !live.reserved)
    return { holds: true, end: live.expiresAt ?? 0, instead: "" };
  return {
    holds: false,
    end: at,
    instead: live.owner === null ? "free" : `held by another hold (fence ${live.fence})`,
  };
}
