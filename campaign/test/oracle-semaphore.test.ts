import { describe, expect, it } from "vitest";
import type {
  AdversaryHistory,
  Execution,
  Intent,
  IntentKind,
  ResourceState,
} from "../src/adversary/history.ts";
import { checkAdversaryHistory } from "../src/adversary/oracle/check.ts";

// Hand-made Semaphore histories: a hold's permits go back exactly once over all its release
// calls, and at quiescence only the permits of holds whose release stayed in doubt (and never
// applied) may still be taken.

const SEM = "adv1:v1:{s}:sem";
const TOTAL = 3;

const sem = (available: number): ResourceState => ({
  kind: "semaphore",
  available,
  total: TOTAL,
  reserved: 0,
});

function runs(...list: { intent: number; script: string; available: number }[]): Execution[] {
  return list.map((r, seq) => ({
    seq,
    intent: r.intent,
    script: r.script,
    command: "EVALSHA",
    resource: SEM,
    opId: null,
    copy: "normal",
    seen: true,
    // Each run inside its intent's call (intent n runs from 100 n to 100 n + 50).
    sentAt: 100 * r.intent + 10 + seq,
    doneAt: 100 * r.intent + 11 + seq,
    serverMs: 100 * r.intent + 11 + seq,
    reply: null,
    error: null,
    state: sem(r.available),
  }));
}

function intent(id: number, kind: IntentKind, outcome: string, holdId: number | null): Intent {
  return {
    id,
    actor: "S0",
    kind,
    resource: SEM,
    owner: "S0-1",
    startedAt: 100 * id,
    endedAt: 100 * id + 50,
    outcome,
    fence: null,
    permits: 2,
    holdId,
  };
}

function history(executions: Execution[], intents: Intent[], final: number): AdversaryHistory {
  return {
    seed: 1,
    config: "hand-made",
    faults: true,
    executions,
    intents,
    beliefs: [],
    samples: [],
    final: { [SEM]: sem(final) },
    totals: { [SEM]: TOTAL },
  };
}

const classes = (h: AdversaryHistory) => checkAdversaryHistory(h).counts;
const acquired = { intent: 0, script: "semaphore/acquire", available: 1 };
const acquire = intent(0, "sem-acquire", "ok", 0);

describe("oracle: a Semaphore hold's release calls", () => {
  it("a release in doubt, then repeated and told ok (the recorded answer): back once", () => {
    const applied = { intent: 1, script: "semaphore/release", available: 3 };
    const h = history(
      runs(acquired, applied),
      [acquire, intent(1, "sem-release", "OUTCOME_UNKNOWN", 0), intent(2, "sem-release", "ok", 0)],
      3,
    );
    expect(classes(h)).toEqual({});
  });

  it("a second call of the same hold that gives the permits back again is reported", () => {
    const applied = { intent: 1, script: "semaphore/release", available: 3 };
    const again = { intent: 2, script: "semaphore/release", available: 5 };
    const h = history(
      runs(acquired, applied, again),
      [acquire, intent(1, "sem-release", "OUTCOME_UNKNOWN", 0), intent(2, "sem-release", "ok", 0)],
      5,
    );
    expect(classes(h)["release-mismatch"]).toBe(1);
  });

  it("a call that failed for sure (BACKEND) yet gave permits back is reported", () => {
    const applied = { intent: 1, script: "semaphore/release", available: 3 };
    const h = history(
      runs(acquired, applied),
      [acquire, intent(1, "sem-release", "BACKEND", 0)],
      3,
    );
    expect(classes(h)["release-mismatch"]).toBe(1);
  });
});

describe("oracle: permits left taken at quiescence", () => {
  it("are allowed for a hold whose every release call stayed in doubt and none applied", () => {
    const h = history(
      runs(acquired),
      [
        acquire,
        intent(1, "sem-release", "OUTCOME_UNKNOWN", 0),
        intent(2, "sem-release", "OUTCOME_UNKNOWN", 0),
      ],
      1,
    );
    expect(classes(h)).toEqual({});
  });

  it("are allowed when the hold's last release call failed for sure and its owner called no more (it still holds them)", () => {
    const h = history(
      runs(acquired),
      [
        acquire,
        intent(1, "sem-release", "OUTCOME_UNKNOWN", 0),
        intent(2, "sem-release", "BACKEND", 0),
      ],
      1,
    );
    expect(classes(h)).toEqual({});
  });

  it("are reported when the holder was never told its release was in doubt (no release call)", () => {
    const h = history(runs(acquired), [acquire], 1);
    expect(classes(h)).toEqual({ "final-state": 1 });
  });

  it("are reported beyond the doubtful hold's own permits", () => {
    // The hold in doubt has 2 permits; 3 are missing.
    const h = history(
      runs(acquired, { intent: 3, script: "semaphore/acquire", available: 0 }),
      [
        acquire,
        intent(1, "sem-release", "OUTCOME_UNKNOWN", 0),
        { ...intent(3, "sem-acquire", "ok", 1), permits: 1 },
      ],
      0,
    );
    expect(classes(h)["final-state"]).toBe(1);
  });

  it("are allowed for an acquire in doubt whose cleanup never reached the server", () => {
    const taken = { intent: 0, script: "semaphore/acquire", available: 1 };
    const h = history(
      [
        ...runs(taken),
        {
          ...runs({ intent: 0, script: "semaphore/abandon", available: 1 })[0]!,
          seq: 1,
          reply: null,
          error: "TransportError: request aborted",
        },
      ],
      [intent(0, "sem-acquire", "OUTCOME_UNKNOWN", null)],
      1,
    );
    expect(classes(h)).toEqual({});
  });

  it("are reported (with the orphan) when the cleanup reached the server and did not undo it", () => {
    const taken = { intent: 0, script: "semaphore/acquire", available: 1 };
    const abandon = { intent: 0, script: "semaphore/abandon", available: 1 };
    const h = history(runs(taken, abandon), [intent(0, "sem-acquire", "OUTCOME_UNKNOWN", null)], 1);
    expect(classes(h)).toEqual({ "orphan-hold": 1, "final-state": 1 });
  });
});
