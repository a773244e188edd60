import type { AdversaryHistory, DataFault, Execution, ResourceState } from "../history.ts";

/**
 * A world that steps the server's wall clock (`clock-step` data faults) logs server times in the
 * stepped clock: each run's `serverMs`, the deadline its copy carried, and every expiry, claim
 * and poll deadline in the states. The checks compare them with real times (when a copy was sent,
 * a client's local deadline), so the oracle first takes out the offset in force when each was
 * logged. A time logged before a step and judged after it keeps the old offset: that is the
 * step's own effect (a forward step ends leases early in real time), which the step excuses
 * judge (`clock-step-excuses.ts`), not the conversion.
 */
export function clockSteps(history: AdversaryHistory): DataFault[] {
  return (history.dataFaults ?? []).filter((f) => f.kind === "clock-step");
}

/** The history with every server time on the real clock; the same object when nothing stepped. */
export function onRealClock(history: AdversaryHistory): AdversaryHistory {
  const steps = clockSteps(history);
  const start = history.serverClockStartMs ?? 0;
  if (steps.length === 0 && start === 0) return history;
  // A step's offset holds from its first logged run on (`seq`); runs are logged in order.
  const offsetAt = (seq: number): number => {
    let offset = start;
    for (const s of steps) if (s.seq <= seq) offset = s.offsetMs ?? offset;
    return offset;
  };
  const finalOffset = steps.at(-1)?.offsetMs ?? start;
  const final: Record<string, ResourceState> = {};
  for (const [key, state] of Object.entries(history.final))
    final[key] = shiftState(state, finalOffset);
  return {
    ...history,
    executions: history.executions.map((e) => shiftExecution(e, offsetAt(e.seq))),
    final,
    ...(history.finalAt === undefined ? {} : { finalAt: history.finalAt - finalOffset }),
  };
}

function shiftExecution(e: Execution, offset: number): Execution {
  if (offset === 0) return e;
  return {
    ...e,
    clockOffsetMs: offset,
    serverMs: e.serverMs - offset,
    ...(e.deadline === undefined ? {} : { deadline: e.deadline - offset }),
    state: shiftState(e.state, offset),
  };
}

/** A resource state with its server times `offset` ms earlier (on the real clock). */
export function shiftState(state: ResourceState, offset: number): ResourceState {
  if (offset === 0) return state;
  const at = (ms: number) => ms - offset;
  const queue = (q: readonly { waiter: string; pollBy: number }[] | undefined) =>
    q?.map((w) => ({ ...w, pollBy: at(w.pollBy) }));
  switch (state.kind) {
    case "lock":
      return { ...state, expiresAt: state.expiresAt === null ? null : at(state.expiresAt) };
    case "read-write-lock":
      return {
        ...state,
        writer: shiftState(state.writer, offset) as typeof state.writer,
        readers: Object.fromEntries(
          Object.entries(state.readers).map(([o, r]) => [o, { ...r, expiresAt: at(r.expiresAt) }]),
        ),
      };
    case "semaphore": {
      const q = queue(state.queue);
      return {
        ...state,
        ...(state.grants === undefined
          ? {}
          : {
              grants: Object.fromEntries(
                Object.entries(state.grants).map(([w, ms]) => [w, at(ms)]),
              ),
            }),
        ...(q === undefined ? {} : { queue: q }),
      };
    }
    case "permit-expirable-semaphore": {
      const q = queue(state.queue);
      return {
        ...state,
        permits: Object.fromEntries(Object.entries(state.permits).map(([p, ms]) => [p, at(ms)])),
        ...(q === undefined ? {} : { queue: q }),
      };
    }
    case "count-down-latch":
      return state;
  }
}
