import { describe, expect, it } from "vitest";
import type {
  AdversaryHistory,
  Belief,
  DataFault,
  Execution,
  Intent,
  ResourceState,
} from "../src/adversary/history.ts";
import { excuseClockSteps } from "../src/adversary/oracle/clock-step-excuses.ts";
import { onRealClock } from "../src/adversary/oracle/server-clock.ts";
import type { AdversaryViolation } from "../src/adversary/oracle/violation.ts";

// The server-clock world's excuses and clock conversion on hand-made histories: a forward step
// excuses a broken lease or a refused cleanup only for what was live across it, and never an
// operation applied twice; a backward step excuses nothing.

const LOCK = "adv1:v1:{a}:lock";
const held = (owner: string, fence: number, expiresAt: number): ResourceState => ({
  kind: "lock",
  owner,
  fence,
  count: 1,
  reserved: false,
  expiresAt,
});

function run(
  seq: number,
  at: number,
  state: ResourceState,
  intent: number | null = null,
): Execution {
  return {
    seq,
    intent,
    script: intent === null ? "world/clock-step" : "lock/acquire",
    command: "EVALSHA",
    resource: LOCK,
    opId: null,
    copy: "normal",
    seen: true,
    sentAt: at,
    doneAt: at + 1,
    serverMs: at + 1,
    reply: null,
    error: null,
    state,
  };
}

const belief = (holdId: number, toldAt: number, releasedAt: number | null): Belief => ({
  holdId,
  resource: LOCK,
  owner: `o${holdId}`,
  fence: holdId,
  toldAt,
  releasedAt,
  abortedAt: null,
  abortReason: null,
  keepAlive: false,
  resumed: false,
});

const intent = (id: number, startedAt: number, endedAt: number): Intent => ({
  id,
  actor: "L0",
  kind: "acquire",
  resource: LOCK,
  owner: `o${id}`,
  startedAt,
  endedAt,
  outcome: "OUTCOME_UNKNOWN",
  fence: null,
  permits: 1,
  holdId: null,
});

function history(steps: { at: number; stepMs: number; seq: number }[]): AdversaryHistory {
  let offsetMs = 0;
  const dataFaults: DataFault[] = steps.map((s) => {
    offsetMs += s.stepMs;
    return { kind: "clock-step", seq: s.seq, at: s.at, stepMs: s.stepMs, offsetMs };
  });
  return {
    seed: 1,
    config: "clock-steps/rest",
    faults: true,
    executions: [
      run(0, 1_000, held("o1", 1, 1_150), 0),
      run(1, 1_100, held("o1", 1, 1_150)),
      run(2, 1_300, held("o2", 2, 1_450), 1),
    ],
    intents: [intent(0, 990, 1_010), intent(1, 1_290, 1_310), intent(2, 5_000, 5_010)],
    beliefs: [belief(1, 1_005, null), belief(2, 1_305, null)],
    samples: [],
    final: {},
    totals: {},
    dataFaults,
  };
}

const overlap: AdversaryViolation = {
  class: "overlap",
  resource: LOCK,
  holdId: 2,
  olderHoldId: 1,
  seq: 2,
  detail: "holds 1 and 2 believed at once",
};

describe("clock-step excuses", () => {
  it("a forward step excuses an overlap of a hold that was live across it", () => {
    const { stand, excused } = excuseClockSteps(history([{ at: 1_100, stepMs: 300, seq: 1 }]), [
      overlap,
    ]);
    expect(stand).toEqual([]);
    expect(excused).toEqual([overlap]);
  });

  it("a step after both holds' spans excuses nothing", () => {
    const h = history([{ at: 9_000, stepMs: 300, seq: 1 }]);
    const lease: AdversaryViolation = {
      class: "dishonest-lease",
      resource: LOCK,
      holdId: 1,
      seq: 0,
      detail: "believed past the server's expiry",
    };
    h.beliefs[0]!.releasedAt = 1_050;
    expect(excuseClockSteps(h, [lease]).stand).toEqual([lease]);
  });

  it("a backward step excuses nothing", () => {
    const { stand } = excuseClockSteps(history([{ at: 1_100, stepMs: -300, seq: 1 }]), [overlap]);
    expect(stand).toEqual([overlap]);
  });

  it("an operation applied twice stands across any step", () => {
    const twice: AdversaryViolation = {
      class: "double-grant",
      resource: LOCK,
      intent: 0,
      detail: "acquire applied 2× its 1",
    };
    const after: AdversaryViolation = {
      class: "applied-after-answer",
      resource: LOCK,
      intent: 0,
      seq: 2,
      detail: "applied after its answer",
    };
    const { stand } = excuseClockSteps(history([{ at: 1_005, stepMs: 300, seq: 1 }]), [
      twice,
      after,
    ]);
    expect(stand).toEqual([twice, after]);
  });

  it("a cleanup refused after a step: its orphan, then the resource's final state, excused", () => {
    const orphan: AdversaryViolation = {
      class: "orphan-hold",
      resource: LOCK,
      intent: 0,
      detail: "acquire ended OUTCOME_UNKNOWN; 1 applied and never undone",
    };
    const final: AdversaryViolation = { class: "final-state", resource: LOCK, detail: "held" };
    const elsewhere: AdversaryViolation = { ...final, resource: "adv1:v1:{b}:lock" };
    const { stand, excused } = excuseClockSteps(
      history([{ at: 1_500, stepMs: 300, seq: 1 }]), // within the cleanup span after the call
      [orphan, final, elsewhere],
    );
    expect(excused).toEqual([orphan, final]);
    expect(stand).toEqual([elsewhere]);
  });
});

describe("server times on the real clock", () => {
  it("takes out the offset in force when each run was logged, from the start offset on", () => {
    const h = { ...history([{ at: 1_100, stepMs: 300, seq: 1 }]), serverClockStartMs: -600 };
    h.dataFaults = [{ kind: "clock-step", seq: 1, at: 1_100, stepMs: 300, offsetMs: -300 }];
    h.final = { [LOCK]: held("o2", 2, 1_150) };
    const real = onRealClock(h);
    expect(real.executions.map((e) => e.serverMs)).toEqual([1_601, 1_401, 1_601]);
    expect(real.executions.map((e) => (e.state as { expiresAt: number }).expiresAt)).toEqual([
      1_750, 1_450, 1_750,
    ]);
    expect((real.final[LOCK] as { expiresAt: number }).expiresAt).toBe(1_450);
  });

  it("leaves a history without steps as it is", () => {
    const h = history([]);
    expect(onRealClock(h)).toBe(h);
  });
});
