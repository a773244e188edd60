import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import type { AdversaryHistory } from "../src/adversary/history.ts";
import { checkAdversaryHistory } from "../src/adversary/oracle/check.ts";

// A recorded run of the adversary gate (reorder world, REST, seed 20261524, at 57992d1) on a
// loaded machine: a PermitExpirableSemaphore acquire (intent 181) ran and granted a 150 ms
// permit, its reply was lost, and the settle told the caller "acquired" from the record. The
// probe after the run read the state 233 ms after the script ran: the permit's lease had run out
// at the server, so no logged state could show the grant. The oracle reported it as told but not
// applied until its excuse for such grants covered this script as it covers the Lock's.

const history = JSON.parse(
  gunzipSync(
    readFileSync(new URL("./fixtures/permit-lease-ran-out-before-probe.json.gz", import.meta.url)),
  ).toString(),
) as AdversaryHistory;

const run = history.executions.find(
  (e) => e.intent === 181 && e.script === "permit-semaphore/acquire",
)!;

describe("a permit whose lease ran out before the probe could read it (recorded run)", () => {
  it("the acquire ran, granted 150 ms, and was probed after that had passed", () => {
    const reply = run.reply as number[];
    expect(reply[0]).toBe(1);
    expect(reply[2]).toBe(150);
    expect(run.serverMs - Number(reply.at(-1))).toBeGreaterThan(150);
    expect(history.intents.find((i) => i.id === 181)?.outcome).toBe("ok");
  });

  it("the oracle finds nothing to report", () => {
    const { violations } = checkAdversaryHistory(history);
    expect(violations).toEqual([]);
  });

  it("with a lease that outlived the probe, the same history is reported as told but not applied", () => {
    const longer = structuredClone(history);
    const copy = longer.executions.find((e) => e.seq === run.seq)!;
    (copy.reply as number[])[2] = 1_000;
    const { counts } = checkAdversaryHistory(longer);
    expect(counts["told-not-applied"]).toBe(1);
  });
});
