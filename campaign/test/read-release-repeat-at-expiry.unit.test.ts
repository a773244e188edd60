import { describe, expect, it } from "vitest";
import { recordedHistory } from "./fixtures/recorded-history.ts";
import { checkAdversaryHistory } from "../src/adversary/oracle/check.ts";

// A recorded run of the adversary gate (reorder world, REST, seed 20271800, at 7369290), one
// read-write lock's runs: a reader's release (count 2 → 1) applied, its caller never saw the
// reply and ended in OutcomeUnknownError; a held-back copy of the same operation was sent 1 ms
// before the session's lease ran out, ran 2 ms after it, and answered from the operation's
// record. The session was gone after that run, by its lease; the oracle judged the session live
// when the copy was sent and counted its end as that copy's release, applied after the caller's
// answer.

const history = recordedHistory("read-release-repeat-at-expiry.json.gz");

const release = history.intents.find(
  (i) => i.kind === "release" && i.outcome === "OUTCOME_UNKNOWN",
)!;
const copies = history.executions.filter(
  (e) => e.intent === release.id && e.script === "read-write-lock/release-read",
);
const session = (e: (typeof history.executions)[number]) =>
  e.state.kind === "read-write-lock" ? e.state.readers[release.owner] : undefined;

describe("a repeat of a reader's release as its session ran out (recorded run)", () => {
  it("the first copy released a level; the late copy of it ran past the session's end", () => {
    const [first, late] = copies;
    expect(first!.copy).toBe("normal");
    expect(session(first!)?.count).toBe(1);
    expect(late!.copy).toBe("late");
    expect(late!.opId).toBe(first!.opId);
    expect(late!.reply).toEqual([...(first!.reply as number[]).slice(0, -1), expect.any(Number)]);
    const end = session(first!)!.expiresAt;
    expect(late!.sentAt).toBeLessThan(end);
    expect(Number((late!.reply as number[]).at(-1))).toBeGreaterThanOrEqual(end);
    expect(session(late!)).toBeUndefined();
  });

  it("the oracle finds nothing to report", () => {
    expect(checkAdversaryHistory(history).violations).toEqual([]);
  });

  it("had that copy been of another operation, its release after the answer is reported", () => {
    const other = structuredClone(history);
    const late = other.executions.find((e) => e.seq === copies[1]!.seq)!;
    (late as { opId: string | null }).opId = "another-operation";
    expect(checkAdversaryHistory(other).counts["applied-after-answer"]).toBe(1);
  });
});
