import { describe, expect, it } from "vitest";
import type { AdversaryHistory, Belief, Execution } from "../src/adversary/history.ts";
import { checkLostWithoutFault } from "../src/adversary/oracle/release-checks.ts";

// Hand-made calm histories: a kept-alive hold lost with no fault injected is a violation, unless
// the world held back a renewal that was handed to it in time.

const belief: Belief = {
  holdId: 0,
  resource: "p:lock",
  owner: "o1",
  fence: 1,
  toldAt: 0,
  releasedAt: 5_000,
  abortedAt: 3_449,
  abortReason: "deadline",
  keepAlive: true,
  resumed: false,
};

const renewal = (
  times: Pick<Execution, "sentAt" | "doneAt"> & { queuedAt?: number },
): Execution => ({
  seq: 1,
  intent: 1,
  script: "lock/extend",
  command: "EVALSHA",
  resource: "p:lock",
  opId: "op",
  copy: "normal",
  seen: true,
  serverMs: times.doneAt,
  reply: null,
  error: null,
  state: { kind: "lock", owner: "o1", fence: 1, count: 1, reserved: false, expiresAt: null },
  subject: "o1",
  ...times,
});

const calm = (executions: Execution[]): AdversaryHistory => ({
  seed: 1,
  config: "calm/rest",
  faults: false,
  executions,
  intents: [
    {
      id: 1,
      actor: "L0",
      kind: "reenter",
      resource: "p:lock",
      owner: "o1",
      startedAt: 0,
      endedAt: 2_700,
      outcome: "ok",
      fence: 1,
      permits: 0,
      holdId: 0,
    },
  ],
  beliefs: [belief],
  samples: [],
  final: {},
  totals: {},
});

const classes = (h: AdversaryHistory) => checkLostWithoutFault(h).map((v) => v.class);

describe("lost without fault", () => {
  it("a kept-alive hold lost in a calm run is a violation", () => {
    expect(classes(calm([]))).toEqual(["lost-without-fault"]);
  });

  it("is excused when the world held a renewal queued in time past the loss (3 ms round trip, queued 3 017, run at 3 559)", () => {
    expect(classes(calm([renewal({ queuedAt: 3_017, sentAt: 3_559, doneAt: 3_562 })]))).toEqual([]);
  });

  it("is not excused when the renewal was handed over only after the loss (a keeper renewing too late: finding 7)", () => {
    expect(classes(calm([renewal({ queuedAt: 3_500, sentAt: 3_501, doneAt: 3_504 })]))).toEqual([
      "lost-without-fault",
    ]);
  });

  it("is not excused when the renewal's own round trip would have ended after the loss", () => {
    expect(classes(calm([renewal({ queuedAt: 3_440, sentAt: 3_500, doneAt: 3_520 })]))).toEqual([
      "lost-without-fault",
    ]);
  });

  it("is not excused by another owner's renewal, nor by a history that logged no queue time", () => {
    expect(
      classes(
        calm([
          { ...renewal({ queuedAt: 3_017, sentAt: 3_559, doneAt: 3_562 }), subject: "o2" },
          renewal({ sentAt: 3_559, doneAt: 3_562 }),
        ]),
      ),
    ).toEqual(["lost-without-fault"]);
  });

  it("is excused when a call of its owner timed out and settled before the loss (a calm world's request held past the request timeout)", () => {
    const settle = {
      ...renewal({ queuedAt: 2_680, sentAt: 2_690, doneAt: 2_700 }),
      script: "engine/settle",
      subject: "x",
    };
    expect(classes(calm([settle]))).toEqual([]);
    expect(classes(calm([{ ...settle, queuedAt: 3_500, sentAt: 3_500, doneAt: 3_510 }]))).toEqual([
      "lost-without-fault",
    ]);
    expect(classes(calm([{ ...settle, intent: 2 }]))).toEqual(["lost-without-fault"]);
  });
});
