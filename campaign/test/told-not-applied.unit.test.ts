import { describe, expect, it } from "vitest";
import type { AdversaryHistory, Execution, Intent } from "../src/adversary/history.ts";
import { checkAdversaryHistory } from "../src/adversary/oracle/check.ts";
import { FREE } from "../src/adversary/oracle/lock-transitions.ts";

// `told-not-applied` on hand-made histories: a caller told it acquired whose grant no logged
// state shows. Excused only when the grant's lease had run out at the server before the probe
// after its run could read it (a run stalled on a loaded machine: seen in the gate).

const LOCK = "adv1:v1:{a}:lock";

/** One acquire told ok; its run ran at 1 000 (server ms) with a 150 ms lease, probed at `probedAt`. */
function history(probedAt: number): AdversaryHistory {
  const run: Execution = {
    seq: 0,
    intent: 0,
    script: "lock/acquire",
    command: "EVALSHA",
    resource: LOCK,
    opId: "op",
    copy: "normal",
    seen: true,
    sentAt: 999,
    doneAt: probedAt,
    serverMs: probedAt,
    reply: [1, 1_000_000, 1, 150, 0, 0, 0, 0, 0, 0, -1, -1, 1_000],
    error: null,
    state: FREE,
  };
  const intent: Intent = {
    id: 0,
    actor: "L0",
    kind: "acquire",
    resource: LOCK,
    owner: "o1",
    startedAt: 998,
    endedAt: probedAt + 1,
    outcome: "ok",
    fence: 1_000_000,
    permits: 0,
    holdId: 0,
  };
  return {
    seed: 1,
    config: "hand-made",
    faults: true,
    executions: [run],
    intents: [intent],
    beliefs: [],
    samples: [],
    final: { [LOCK]: FREE },
    totals: {},
  };
}

describe("oracle: told-not-applied", () => {
  it("excuses a grant whose lease ran out before its run's probe (a stalled run)", () => {
    expect(checkAdversaryHistory(history(1_200)).counts["told-not-applied"]).toBeUndefined();
  });

  it("reports the same grant when the probe came while its lease still ran", () => {
    expect(checkAdversaryHistory(history(1_050)).counts["told-not-applied"]).toBe(1);
  });

  it("judges the reply's server time on the real clock in a world whose server clock is off", () => {
    // The server 600 ms behind: every logged server time (the reply's and the probe's) is 600 ms
    // less; the probe came while the lease still ran, so the grant stands unobserved.
    const h = history(1_050);
    const run = h.executions[0]!;
    const reply = [...(run.reply as number[])];
    reply[reply.length - 1] = 1_000 - 600;
    const behind: AdversaryHistory = {
      ...h,
      serverClockStartMs: -600,
      executions: [{ ...run, serverMs: 1_050 - 600, reply }],
    };
    expect(checkAdversaryHistory(behind).counts["told-not-applied"]).toBe(1);
  });

  // A re-entry's reply (status 2) carries the lease it left the hold, as a grant's does.
  const reentry = (probedAt: number): AdversaryHistory => {
    const h = history(probedAt);
    const run = h.executions[0]!;
    const reply = [...(run.reply as number[])];
    reply[0] = 2;
    reply[2] = 2;
    return {
      ...h,
      executions: [{ ...run, script: "fair-lock/acquire", reply }],
      intents: [{ ...h.intents[0]!, kind: "reenter", primitive: "fair-lock" } as Intent],
    };
  };

  it("excuses a re-entry whose lease ran out before its run's probe", () => {
    expect(checkAdversaryHistory(reentry(1_200)).counts["told-not-applied"]).toBeUndefined();
  });

  it("reports the re-entry when the probe came while its lease still ran", () => {
    expect(checkAdversaryHistory(reentry(1_050)).counts["told-not-applied"]).toBe(1);
  });

  // A MultiLock's acquire runs one script over its names (one log entry per name), and its
  // granting reply carries the lease second: status, shortest lease, slots…, server time.
  const multi = (probedAt: number): AdversaryHistory => {
    const h = history(probedAt);
    const names = ["adv1:v1:{ab}a:lock", "adv1:v1:{ab}b:lock"];
    const reply = [1, 150, 1, 1, 1_000_000, 1_000_000, 0, 0, -1, -1, 1_000];
    const runs = names.map((resource, seq) => ({
      ...h.executions[0]!,
      seq,
      script: "multi-lock/acquire",
      resource,
      reply,
    }));
    const intent = { ...h.intents[0]!, kind: "acquire", primitive: "multi-lock" } as Intent;
    return {
      ...h,
      executions: runs,
      intents: [{ ...intent, resource: names[0]!, resources: names }],
      final: Object.fromEntries(names.map((n) => [n, FREE])),
    };
  };

  it("excuses a MultiLock grant whose shortest lease ran out before its run's probe", () => {
    expect(checkAdversaryHistory(multi(1_200)).counts["told-not-applied"]).toBeUndefined();
  });

  it("reports the MultiLock grant when the probe came while its lease still ran", () => {
    expect(checkAdversaryHistory(multi(1_050)).counts["told-not-applied"]).toBe(1);
  });
});
