import { describe, expect, it } from "vitest";
import type { AdversaryHistory, Execution, Intent } from "../src/adversary/history.ts";
import { checkIllFormedRefused, checkOneKeyOneName } from "../src/adversary/oracle/name-checks.ts";

// Finding 5's rules on hand-made histories: names that differ only by a lone surrogate reach
// Redis as one key (U+FFFD on the wire), and a call on such a name must be refused, typed.

const key = (name: string) => `adv1:v1:{${name}}:lock`;
const REPLACEMENT = key("x\uFFFD");
const LONE_HIGH = key("x\uD800");
const OTHER = key("y");

function execution(seq: number, resource: string, intent: number): Execution {
  return {
    seq,
    intent,
    script: "lock/acquire",
    command: "EVALSHA",
    resource,
    opId: null,
    copy: "normal",
    seen: true,
    sentAt: seq,
    doneAt: seq + 1,
    serverMs: seq + 1,
    reply: null,
    error: null,
    state: { kind: "lock", owner: null, fence: 0, count: 0, reserved: false, expiresAt: null },
  };
}

function intent(id: number, resource: string, outcome: string, owner = `o${id}`): Intent {
  return {
    id,
    actor: "L0",
    kind: "tryAcquire",
    resource,
    owner,
    startedAt: 0,
    endedAt: 1,
    outcome,
    fence: null,
    permits: 0,
    holdId: null,
  };
}

function history(executions: Execution[], intents: Intent[]): AdversaryHistory {
  return {
    seed: 1,
    config: "hand-made",
    faults: false,
    executions,
    intents,
    beliefs: [],
    samples: [],
    final: {},
    totals: {},
  };
}

describe("one key, one name", () => {
  it("reports two resources that reach Redis as one key, at the second one's first run", () => {
    const h = history(
      [execution(0, REPLACEMENT, 0), execution(1, OTHER, 1), execution(2, LONE_HIGH, 2)],
      [intent(0, REPLACEMENT, "ok"), intent(1, OTHER, "ok"), intent(2, LONE_HIGH, "ok")],
    );
    const found = checkOneKeyOneName(h);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ class: "key-shared", resource: REPLACEMENT, seq: 2 });
  });

  it("accepts distinct names, each run many times", () => {
    const h = history(
      [execution(0, REPLACEMENT, 0), execution(1, OTHER, 1), execution(2, REPLACEMENT, 2)],
      [intent(0, REPLACEMENT, "ok"), intent(1, OTHER, "ok"), intent(2, REPLACEMENT, "none")],
    );
    expect(checkOneKeyOneName(h)).toEqual([]);
  });

  it("a surrogate pair is well-formed and its own key", () => {
    const pair = key("x\uD83D\uDE00");
    const h = history(
      [execution(0, REPLACEMENT, 0), execution(1, pair, 1)],
      [intent(0, REPLACEMENT, "ok"), intent(1, pair, "ok")],
    );
    expect(checkOneKeyOneName(h)).toEqual([]);
    expect(checkIllFormedRefused(h)).toEqual([]);
  });
});

describe("ill-formed names are refused", () => {
  it("passes a refusal with INVALID_ARGUMENT that ran nothing", () => {
    const h = history([], [intent(0, LONE_HIGH, "INVALID_ARGUMENT")]);
    expect(checkIllFormedRefused(h)).toEqual([]);
  });

  it("reports a call on an ill-formed name told anything else, or that ran a script", () => {
    const h = history(
      [execution(0, LONE_HIGH, 1)],
      [
        intent(0, LONE_HIGH, "ok"),
        intent(1, LONE_HIGH, "INVALID_ARGUMENT"),
        intent(2, key("x\uDFFF"), "none"),
        intent(3, REPLACEMENT, "ok", "owner\uDC00"),
        intent(4, REPLACEMENT, "ok"),
      ],
    );
    expect(checkIllFormedRefused(h).map((v) => [v.class, v.intent])).toEqual([
      ["ill-formed-accepted", 0],
      ["ill-formed-accepted", 1],
      ["ill-formed-accepted", 2],
      ["ill-formed-accepted", 3],
    ]);
  });
});
