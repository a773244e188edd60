import { describe, expect, it } from "vitest";
import { recordedHistory } from "./fixtures/recorded-history.ts";
import type { Execution } from "../src/adversary/history.ts";
import { checkAdversaryHistory } from "../src/adversary/oracle/check.ts";

// A recorded run of the adversary gate (reorder world, TCP, seed 20265005, at 58e9cc6), the
// read-write lock's runs from #1600 on: a writer re-entered (its call ended in
// OutcomeUnknownError, a held-back copy re-entered: count 2), released the one hold it knew of
// (count 1), and 5 ms later the re-entry's background abandon took that last level back and
// handed the lock on. The oracle excused such a hold left after a release, undone by the
// owner's own abandon, only for a Lock's hash, and reported the writer's as a leaked hold.

const history = recordedHistory("write-reentry-undone-after-release.json.gz");

const reentry = history.intents.find(
  (i) => i.kind === "reenter" && i.outcome === "OUTCOME_UNKNOWN",
)!;
const release = history.intents.find((i) => i.kind === "release" && i.owner === reentry.owner)!;
const writer = (e: Execution) => {
  if (e.state.kind !== "read-write-lock") throw new Error("not a read-write lock");
  return e.state.writer;
};
const runsOf = (intent: number) => history.executions.filter((e) => e.intent === intent);

describe("a writer's re-entry undone by its abandon after the owner's release (recorded run)", () => {
  it("the re-entry applied, the release left its level, the abandon took it", () => {
    expect(runsOf(reentry.id).some((e) => writer(e).count === 2)).toBe(true);
    const released = runsOf(release.id).at(-1)!;
    expect(writer(released)).toMatchObject({ owner: reentry.owner, count: 1 });
    const abandon = runsOf(reentry.id).find(
      (e) => /abandon/.test(e.script) && e.seq > released.seq,
    )!;
    expect(writer(abandon).owner).not.toBe(reentry.owner);
  });

  it("the oracle finds nothing to report", () => {
    expect(checkAdversaryHistory(history).violations).toEqual([]);
  });

  it("had anything but the re-entry's own cleanup taken that level, the hold left is a leak", () => {
    const other = structuredClone(history);
    for (const e of other.executions)
      if (e.intent === reentry.id && /abandon/.test(e.script))
        (e as { script: string }).script = "read-write-lock/release-write";
    expect(checkAdversaryHistory(other).counts["leaked-hold"]).toBe(1);
  });
});
