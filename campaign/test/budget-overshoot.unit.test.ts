import { describe, expect, it } from "vitest";
import {
  addOvershoots,
  formatOvershoots,
  type Overshoots,
} from "../src/adversary/budget-overshoot.ts";
import type { AdversaryHistory, Execution, Intent } from "../src/adversary/history.ts";
import { parseScriptCall } from "../src/adversary/world/script-call.ts";
import { SCRIPT_SHAS } from "../src/world/script-names.ts";

// Hand-made histories: each call's budget end from docs/protocol.md, and the worst overshoot of a
// copy's deadline and of the call's return.

const TIMINGS = { requestTimeoutMs: 40, retryWindowMs: 120 };

const intent = (fields: Partial<Intent> & Pick<Intent, "id" | "kind" | "startedAt">): Intent => ({
  actor: "a",
  resource: "r",
  owner: "o",
  endedAt: fields.startedAt + 10,
  outcome: "ok",
  fence: null,
  permits: 0,
  holdId: null,
  ...fields,
});

const copy = (fields: Pick<Execution, "seq" | "intent" | "script" | "deadline">): Execution => ({
  command: "EVALSHA",
  resource: "r",
  opId: `op${fields.seq}`,
  copy: "normal",
  seen: true,
  sentAt: 0,
  doneAt: 0,
  serverMs: 0,
  reply: null,
  error: null,
  state: { kind: "count-down-latch", count: 0 },
  ...fields,
});

const history = (
  intents: Intent[],
  executions: Execution[],
  samples = [] as AdversaryHistory["samples"],
): AdversaryHistory => ({
  seed: 1,
  config: "unit",
  faults: true,
  executions,
  intents,
  beliefs: [],
  samples,
  final: {},
  totals: {},
});

describe("budget overshoot", () => {
  it("an acquire's budget is waitMs plus one request timeout; a tryAcquire's one request timeout", () => {
    const into: Overshoots = {};
    addOvershoots(
      into,
      history(
        [
          intent({ id: 0, kind: "acquire", startedAt: 1_000, waitMs: 500, endedAt: 1_600 }),
          intent({ id: 1, kind: "tryAcquire", startedAt: 2_000, endedAt: 2_030 }),
        ],
        [
          copy({ seq: 0, intent: 0, script: "lock/acquire", deadline: 1_545 }),
          copy({ seq: 1, intent: 0, script: "lock/abandon", deadline: 9_999 }),
          copy({ seq: 2, intent: 1, script: "lock/acquire", deadline: 2_035 }),
        ],
      ),
      TIMINGS,
    );
    // 1 000 + 500 + 40 = 1 540: the copy's deadline 5 ms past, the return 60 ms past. The
    // abandon is background work charged to the call, not its own request: not counted.
    expect(into.acquire).toEqual({ calls: 1, copies: 1, worstDeadlineMs: 5, worstReturnMs: 60 });
    expect(into.tryAcquire).toEqual({
      calls: 1,
      copies: 1,
      worstDeadlineMs: -5,
      worstReturnMs: -10,
    });
  });

  it("a renewal's budget ends at the hold's local deadline as last sampled before the call, within the retry window", () => {
    const into: Overshoots = {};
    addOvershoots(
      into,
      history(
        [
          intent({ id: 0, kind: "extend", startedAt: 1_000, holdId: 7, endedAt: 1_020 }),
          intent({ id: 1, kind: "extend", startedAt: 2_000, holdId: 8, endedAt: 2_020 }),
        ],
        [
          copy({ seq: 0, intent: 0, script: "lock/extend", deadline: 1_070 }),
          copy({ seq: 1, intent: 1, script: "fair-lock/extend", deadline: 2_150 }),
        ],
        [
          { seq: 0, holdId: 7, at: 900, deadline: 1_050 },
          { seq: 1, holdId: 7, at: 1_100, deadline: 1_000_000 },
          { seq: 0, holdId: 8, at: 1_900, deadline: 9_000 },
        ],
      ),
      TIMINGS,
    );
    // Hold 7: local deadline 1 050 (the sample after the call's start does not count); hold 8:
    // the retry window (2 120) comes first.
    expect(into.extend).toEqual({ calls: 2, copies: 2, worstDeadlineMs: 30, worstReturnMs: -30 });
  });

  it("a resumed hold's first renewal has the retry window, not its provisional local deadline", () => {
    const into: Overshoots = {};
    addOvershoots(
      into,
      history(
        [intent({ id: 0, kind: "resume-extend", startedAt: 1_000, holdId: 3, endedAt: 1_020 })],
        [copy({ seq: 0, intent: 0, script: "lock/extend", deadline: 1_110 })],
        // provisional: expiresAt − 2 × clockErrorMs, already before the call
        [{ seq: 0, holdId: 3, at: 990, deadline: 500 }],
      ),
      TIMINGS,
    );
    expect(into["resume-extend"]).toEqual({
      calls: 1,
      copies: 1,
      worstDeadlineMs: -10,
      worstReturnMs: -100,
    });
  });

  it("a release's budget is the retry window; a multi-lock's run logged per lock is one copy", () => {
    const into: Overshoots = {};
    addOvershoots(
      into,
      history(
        [intent({ id: 0, kind: "release", startedAt: 0, endedAt: 100 })],
        [
          copy({ seq: 0, intent: 0, script: "multi-lock/release", deadline: 110 }),
          {
            ...copy({ seq: 1, intent: 0, script: "multi-lock/release", deadline: 110 }),
            opId: "op0",
          },
        ],
      ),
      TIMINGS,
    );
    expect(into.release).toEqual({ calls: 1, copies: 1, worstDeadlineMs: -10, worstReturnMs: -20 });
    expect(formatOvershoots(into)).toMatch(/release\s+1\s+1\s+-10\s+-20/);
  });

  it("reads the deadline from the engine's slots of a real script call", () => {
    const sha = SCRIPT_SHAS.get("lock/acquire")!;
    // EVALSHA sha numkeys keys… own args… deadline margin quarantine sentinel-ttl epoch
    const call = parseScriptCall([
      "EVALSHA",
      sha,
      2,
      "{p}:l",
      "{p}:op:abc",
      "owner",
      1_234_567,
      3_000,
      0,
      60_000,
      "0",
    ]);
    expect(call).toMatchObject({ script: "lock/acquire", opId: "abc", deadline: 1_234_567 });
    expect(parseScriptCall(["EVALSHA", sha, 1, "{p}:l", "owner"])?.deadline).toBeNull();
  });
});
