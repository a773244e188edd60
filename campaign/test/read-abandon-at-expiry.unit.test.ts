import { describe, expect, it } from "vitest";
import { recordedHistory } from "./fixtures/recorded-history.ts";
import { checkAdversaryHistory } from "../src/adversary/oracle/check.ts";

// A recorded run of the adversary gate (short-records world, REST, seed 20265602, at 814fe7e),
// the read-write lock's runs from #1100 on: a reader re-entered its session (count 1 → 2, run
// #1308), the re-entry ended in OutcomeUnknownError, and its abandon (#1349) gave the level back
// at server ms …097, one ms before the session's lease ran out (…098); the reply came back at
// …098. The oracle counted a session change only while the session outlived the run's return,
// so it missed that release and reported the re-entry as an orphan hold.

const history = recordedHistory("read-abandon-as-session-ran-out.json.gz");

const reentry = history.intents.find((i) => i.kind === "reenter")!;
const abandon = history.executions.find(
  (e) => e.intent === reentry.id && e.script === "read-write-lock/abandon-read",
)!;
const readerOf = (e: (typeof history.executions)[number]) => {
  if (e.state.kind !== "read-write-lock") throw new Error("not a read-write lock");
  return e.state.readers[reentry.owner]!;
};

describe("a read re-entry's abandon as its session ran out (recorded run)", () => {
  it("the abandon gave one level back just before the session's lease ended", () => {
    expect(reentry.outcome).toBe("OUTCOME_UNKNOWN");
    expect((abandon.reply as number[])[0]).toBe(1);
    const after = readerOf(abandon);
    expect(after.count).toBe(1);
    expect(after.expiresAt).toBeLessThanOrEqual(abandon.doneAt);
    expect(Number((abandon.reply as number[]).at(-1))).toBeLessThan(after.expiresAt);
  });

  it("the oracle finds nothing to report", () => {
    expect(checkAdversaryHistory(history).violations).toEqual([]);
  });

  it("had the abandon left the level of a session that lived on, it is an orphan hold", () => {
    // (Left in a session that ran out, the level would end with it: excused.)
    const kept = structuredClone(history);
    for (const e of kept.executions)
      if (e.seq >= abandon.seq && e.state.kind === "read-write-lock") {
        const r = e.state.readers[reentry.owner] as
          { count: number; expiresAt: number } | undefined;
        if (r) {
          r.count = 2;
          r.expiresAt += 10_000;
        }
      }
    expect(checkAdversaryHistory(kept).counts["orphan-hold"]).toBe(1);
  });
});
