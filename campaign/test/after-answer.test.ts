import { describe, expect, it } from "vitest";
import type {
  AdversaryHistory,
  Execution,
  Intent,
  ResourceState,
} from "../src/adversary/history.ts";
import { checkAdversaryHistory } from "../src/adversary/oracle/check.ts";
import { FREE } from "../src/adversary/oracle/lock-transitions.ts";

// The oracle's `applied-after-answer` rule on hand-made histories: an error is a final answer,
// so no copy of a call that ended in one may grant or release after the caller was told;
// its own cleanup (abandon, settle) may.

const LOCK = "adv1:v1:{a}:lock";
const held = (owner: string, expiresAt: number): ResourceState => ({
  kind: "lock",
  owner,
  fence: 7,
  count: 1,
  reserved: false,
  expiresAt,
});

function runs(
  ...list: { intent: number; script: string; at: number; state: ResourceState }[]
): Execution[] {
  return list.map((r, seq) => ({
    seq,
    intent: r.intent,
    script: r.script,
    command: "EVALSHA",
    resource: LOCK,
    opId: "op",
    copy: "late",
    seen: false,
    sentAt: r.at,
    doneAt: r.at + 1,
    serverMs: r.at + 1,
    reply: null,
    error: null,
    state: r.state,
  }));
}

const unknownTry: Intent = {
  id: 0,
  actor: "o1",
  kind: "tryAcquire",
  resource: LOCK,
  owner: "o1",
  startedAt: 0,
  endedAt: 200,
  outcome: "OUTCOME_UNKNOWN",
  fence: null,
  permits: 0,
  holdId: null,
};

const history = (executions: Execution[], intents: Intent[]): AdversaryHistory => ({
  seed: 1,
  config: "hand-made",
  faults: true,
  executions,
  intents,
  beliefs: [],
  samples: [],
  final: {},
  totals: {},
});

const classes = (h: AdversaryHistory) => checkAdversaryHistory(h).counts;

describe("oracle: applied-after-answer", () => {
  it("reports a grant by a copy that ran after its caller was told the outcome is unknown", () => {
    const h = history(
      runs(
        { intent: 0, script: "lock/acquire", at: 300, state: held("o1", 450) },
        { intent: 0, script: "lock/abandon", at: 310, state: FREE },
      ),
      [unknownTry],
    );
    expect(classes(h)["applied-after-answer"]).toBe(1);
  });

  it("accepts the same grant when it ran before the caller's answer", () => {
    const h = history(
      runs(
        { intent: 0, script: "lock/acquire", at: 150, state: held("o1", 300) },
        { intent: 0, script: "lock/abandon", at: 310, state: FREE },
      ),
      [unknownTry],
    );
    expect(classes(h)["applied-after-answer"]).toBeUndefined();
  });

  it("accepts the call's own cleanup after the answer", () => {
    const release: Intent = { ...unknownTry, id: 1, kind: "release", outcome: "BACKEND_ERROR" };
    const h = history(
      runs(
        { intent: 0, script: "lock/acquire", at: 100, state: held("o1", 900) },
        { intent: 1, script: "lock/abandon", at: 300, state: FREE },
      ),
      [{ ...unknownTry, outcome: "ok" }, release],
    );
    expect(classes(h)["applied-after-answer"]).toBeUndefined();
  });

  /**
   * A release in doubt whose first copy released one of two counts, then a repeat sent at 230
   * that found the hold gone; the remaining count's lease ends at `expiresAt`.
   */
  const repeatFindingItGone = (expiresAt: number) => {
    const release: Intent = {
      ...unknownTry,
      id: 1,
      kind: "release",
      startedAt: 100,
      endedAt: 200,
      outcome: "OUTCOME_UNKNOWN",
    };
    const twice = { ...held("o1", expiresAt), count: 2 } as ResourceState;
    return history(
      runs(
        { intent: 0, script: "lock/acquire", at: 50, state: twice },
        { intent: 1, script: "lock/release", at: 150, state: held("o1", expiresAt) },
        { intent: 1, script: "lock/release", at: 230, state: FREE },
      ),
      [{ ...unknownTry, outcome: "ok" }, release],
    );
  };

  it("accepts a repeat of an applied release that finds the hold run out as it ran (a lease boundary)", () => {
    // Seen in the gate (reorder/tcp seed 20261529): the repeat, sent 1 ms before the remaining
    // count's lease ran out, found it gone (its reply the recorded answer).
    expect(classes(repeatFindingItGone(231))["applied-after-answer"]).toBeUndefined();
  });

  it("reports the same repeat when the lease had time left: it applied a second time", () => {
    expect(classes(repeatFindingItGone(900))["applied-after-answer"]).toBe(1);
  });

  it("reports a release that applied after its caller was told it did not", () => {
    const release: Intent = { ...unknownTry, id: 1, kind: "release", outcome: "BACKEND_ERROR" };
    const h = history(
      runs(
        { intent: 0, script: "lock/acquire", at: 100, state: held("o1", 900) },
        { intent: 1, script: "lock/release", at: 300, state: FREE },
      ),
      [{ ...unknownTry, outcome: "ok" }, release],
    );
    expect(classes(h)["applied-after-answer"]).toBe(1);
  });
});
