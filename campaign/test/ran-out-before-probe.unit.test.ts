import { describe, expect, it } from "vitest";
import { recordedHistory } from "./fixtures/recorded-history.ts";
import { checkAdversaryHistory, formatAdversaryReport } from "../src/adversary/oracle/check.ts";

// Grants whose lease ran out at the server before the probe after their run could read them: on
// a loaded machine the campaign's own process stalled between the script's run and the probe, so
// no logged state could show the grant, and the oracle reported each as told but not applied
// until its excuse for such grants (`ranOutBeforeProbe`) covered the script.
const CASES = [
  {
    // The adversary gate (reorder world, REST, seed 20261524, at 57992d1): a permit acquire ran
    // and granted 150 ms, its reply was lost, and the settle told the caller "acquired" from the
    // record; the probe read the state 233 ms after the script ran.
    what: "a PermitExpirableSemaphore permit",
    fixture: "permit-lease-ran-out-before-probe.json.gz",
    intent: 181,
    script: "permit-semaphore/acquire",
    leaseSlot: 2,
  },
  {
    // reorder over TCP (seed 7002504, at c209a8c), the read-write lock's runs from #9100 on: a
    // read acquire's first copy, held back, ran and granted a 150 ms read session; the probe read
    // the state 253 ms after the script ran; the caller was told "acquired" by its settle.
    what: "a read-write lock's read session",
    fixture: "read-lease-ran-out-before-probe.json.gz",
    intent: 23,
    script: "read-write-lock/acquire-read",
    leaseSlot: 3,
  },
] as const;

describe.each(CASES)("$what whose lease ran out before the probe (recorded run)", (c) => {
  const history = recordedHistory(c.fixture);
  const run = history.executions.find((e) => e.intent === c.intent && e.script === c.script)!;

  it("the acquire ran, granted 150 ms, and was probed after that had passed", () => {
    const reply = run.reply as number[];
    expect(reply[0]).toBe(1);
    expect(reply[c.leaseSlot]).toBe(150);
    expect(run.serverMs - Number(reply.at(-1))).toBeGreaterThan(150);
    expect(history.intents.find((i) => i.id === c.intent)?.outcome).toBe("ok");
  });

  it("the oracle finds nothing to report", () => {
    expect(checkAdversaryHistory(history).violations).toEqual([]);
  });

  it("with a lease that outlived the probe, the same history is reported as told but not applied", () => {
    const longer = structuredClone(history);
    const copy = longer.executions.find((e) => e.seq === run.seq)!;
    (copy.reply as number[])[c.leaseSlot] = 1_000;
    const result = checkAdversaryHistory(longer);
    expect(result.counts["told-not-applied"]).toBe(1);
    // The report carries the runs behind it (the CI machine keeps no history file).
    expect(formatAdversaryReport(longer, result)).toContain(`#${run.seq} ${c.script} ${run.copy}`);
  });
});
