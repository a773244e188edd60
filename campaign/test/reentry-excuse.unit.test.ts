import { describe, expect, it } from "vitest";
import type { AdversaryHistory, Execution, Intent, LockState } from "../src/adversary/history.ts";
import { reentryEndedWithItsHold } from "../src/adversary/oracle/reentry-excuse.ts";

// A write re-entry in doubt that applied (count 1 → 2) on the owner's own hold, seen in the gate:
// the owner's `extend(14)` shortened the lease, the hold ran out, and the re-entry's cleanup ran
// after, with nothing left to undo. The extra count never outlived the owner's hold.

const OWNER = "R1-1";
const reenter: Intent = {
  id: 50,
  actor: "R1",
  kind: "reenter",
  resource: "{q}:rw:lock",
  owner: OWNER,
  startedAt: 0,
  endedAt: 80,
  outcome: "OUTCOME_UNKNOWN",
  fence: null,
  permits: 0,
  holdId: null,
};
const release: Intent = { ...reenter, id: 62, kind: "release", outcome: "ok" };

const writer = (count: number, expiresAt: number | null, owner: string | null = OWNER) =>
  ({
    kind: "lock",
    owner,
    count,
    fence: 7,
    reserved: false,
    expiresAt: owner === null ? null : expiresAt,
  }) satisfies LockState;

let seq = 0;
const run = (
  intent: number,
  script: string,
  at: number,
  state: LockState,
  fields: Partial<Execution> = {},
): Execution => ({
  seq: seq++,
  intent,
  script,
  command: "EVALSHA",
  resource: "{q}:rw:lock",
  opId: `op${intent}`,
  copy: "normal",
  seen: true,
  sentAt: at,
  doneAt: at + 1,
  serverMs: at,
  reply: null,
  error: null,
  state: { kind: "read-write-lock", writer: state, readers: {} },
  ...fields,
});

const history = (executions: Execution[]): AdversaryHistory => ({
  seed: 1,
  config: "server-faults/rest",
  faults: true,
  executions,
  intents: [
    reenter,
    release,
    { ...reenter, id: 57, kind: "extend", outcome: "ok" },
    { ...reenter, id: 70, kind: "acquire", outcome: "ok", owner: "R3-1" },
    // The owner's own acquire, told before the re-entry began.
    { ...reenter, id: 35, kind: "acquire", outcome: "ok", startedAt: -200, endedAt: 0 },
  ],
  beliefs: [],
  samples: [],
  final: {},
  totals: {},
});

describe("a re-entry in doubt whose extra count ended with its owner's hold", () => {
  it("is excused when only the owner's renewals touched the hold and it ran out by its lease", () => {
    seq = 0;
    const grant = run(50, "read-write-lock/acquire-write", 40, writer(2, 220), { seen: false });
    const runs = [
      grant,
      run(57, "fair-lock/extend", 145, writer(2, 160)),
      // The re-entry's own cleanup, after the lease ran out: nothing left to undo.
      run(50, "read-write-lock/abandon-write", 190, writer(0, null, null)),
    ];
    expect(reentryEndedWithItsHold(history(runs), runs, reenter, grant)).toBe(true);
  });

  it("is not excused when the owner's release took the count down and the extra kept the lock held", () => {
    seq = 0;
    const grant = run(50, "read-write-lock/acquire-write", 40, writer(2, 220), { seen: false });
    const runs = [
      grant,
      run(62, "read-write-lock/release-write", 100, writer(1, 220)),
      run(70, "read-write-lock/acquire-write", 230, writer(0, null, null)),
    ];
    expect(reentryEndedWithItsHold(history(runs), runs, reenter, grant)).toBe(false);
  });

  it("is not excused when the hold was still live at the end of the run", () => {
    seq = 0;
    const grant = run(50, "read-write-lock/acquire-write", 40, writer(2, 5_000), { seen: false });
    const runs = [grant, run(57, "fair-lock/extend", 145, writer(2, 9_000))];
    expect(reentryEndedWithItsHold(history(runs), runs, reenter, grant)).toBe(false);
  });

  it("is not excused when the owner's hold was told only after the re-entry began (it may be this grant)", () => {
    seq = 0;
    const grant = run(50, "read-write-lock/acquire-write", 40, writer(2, 220), { seen: false });
    const runs = [grant, run(50, "read-write-lock/abandon-write", 300, writer(0, null, null))];
    const h = history(runs);
    const late = { ...h, intents: h.intents.map((i) => (i.id === 35 ? { ...i, endedAt: 5 } : i)) };
    expect(reentryEndedWithItsHold(h, runs, reenter, grant)).toBe(true);
    expect(reentryEndedWithItsHold(late, runs, reenter, grant)).toBe(false);
  });

  it("a read re-entry: excused when the owner's read session ran out by its lease, not when a release left the extra", () => {
    seq = 0;
    const free = writer(0, null, null);
    const reading = (count: number, expiresAt: number) => ({
      kind: "read-write-lock" as const,
      writer: free,
      readers: { [OWNER]: { count, fence: 9, expiresAt } },
    });
    const gone = { kind: "read-write-lock" as const, writer: free, readers: {} };
    const grant = { ...run(50, "read-write-lock/acquire-read", 40, free), state: reading(2, 220) };
    const ranOut = [
      grant,
      { ...run(57, "read-write-lock/extend-read", 145, free), state: reading(2, 160) },
      { ...run(50, "read-write-lock/abandon-read", 190, free), state: gone },
    ];
    expect(reentryEndedWithItsHold(history(ranOut), ranOut, reenter, grant)).toBe(true);
    const released = [
      grant,
      { ...run(62, "read-write-lock/release-read", 100, free), state: reading(1, 220) },
      { ...run(70, "read-write-lock/acquire-write", 230, free), state: gone },
    ];
    expect(reentryEndedWithItsHold(history(released), released, reenter, grant)).toBe(false);
  });
});
