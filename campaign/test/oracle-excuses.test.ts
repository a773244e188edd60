import { describe, expect, it } from "vitest";
import type {
  AdversaryHistory,
  Belief,
  Execution,
  Intent,
  IntentKind,
  ResourceState,
} from "../src/adversary/history.ts";
import { checkAdversaryHistory } from "../src/adversary/oracle/check.ts";
import { GrantLedger } from "../src/adversary/oracle/grant-ledger.ts";
import { readWriteTransitions } from "../src/adversary/oracle/rw-transitions.ts";
import { FREE, lockTransitions } from "../src/adversary/oracle/lock-transitions.ts";

// Hand-made histories for the oracle's two excuses: each applies exactly in its case (the whole
// history checks clean), and the same shape with anything else going on is still a violation.

const LOCK = "adv1:v1:{a}:lock";
const FENCE = 7;

const held = (owner: string, expiresAt: number, count = 1): ResourceState => ({
  kind: "lock",
  owner,
  fence: FENCE,
  count,
  reserved: false,
  expiresAt,
});

/** Runs in execution order (seq = position), each `at` real ms, its state after the run. */
function runs(
  ...list: { intent: number | null; script: string; at: number; state: ResourceState }[]
): Execution[] {
  return list.map((r, seq) => ({
    seq,
    intent: r.intent,
    script: r.script,
    command: "EVALSHA",
    resource: LOCK,
    opId: null,
    copy: "normal",
    seen: true,
    sentAt: r.at,
    doneAt: r.at + 1,
    serverMs: r.at + 1,
    reply: null,
    error: null,
    state: r.state,
  }));
}

function intent(
  id: number,
  kind: IntentKind,
  owner: string,
  outcome: string,
  extra: Partial<Intent> = {},
): Intent {
  return {
    id,
    actor: owner,
    kind,
    resource: LOCK,
    owner,
    startedAt: 0,
    endedAt: 1_000,
    outcome,
    fence: null,
    permits: 0,
    holdId: null,
    ...extra,
  };
}

function belief(holdId: number, owner: string, toldAt: number, releasedAt: number | null): Belief {
  return {
    holdId,
    resource: LOCK,
    owner,
    fence: FENCE,
    toldAt,
    releasedAt,
    abortedAt: null,
    abortReason: null,
    keepAlive: false,
    resumed: false,
  };
}

function history(
  executions: Execution[],
  intents: Intent[],
  beliefs: Belief[] = [],
): AdversaryHistory {
  return {
    seed: 1,
    config: "hand-made",
    faults: true,
    executions,
    intents,
    beliefs,
    samples: [],
    final: {},
    totals: {},
  };
}

const classes = (h: AdversaryHistory) => checkAdversaryHistory(h).counts;

describe("oracle excuse: an orphan grant that ran out by its own lease, untouched", () => {
  // Intent 1's acquire ran late (its reply lost), its settle ran after the lease had ended (its
  // reply lost too): the call ended OUTCOME_UNKNOWN and its abandon found nothing to undo.
  const unknownTry = intent(1, "tryAcquire", "o1", "OUTCOME_UNKNOWN");
  const grant = { intent: 1, script: "lock/acquire", at: 100, state: held("o1", 250) };
  const settle = { intent: 1, script: "engine/settle", at: 300, state: FREE };

  it("is excused when no one was told of it, no run touched it, and it expired", () => {
    const nextOwner = { intent: 2, script: "lock/acquire", at: 400, state: held("o2", 550) };
    const h = history(runs(grant, settle, nextOwner), [
      unknownTry,
      intent(2, "tryAcquire", "o2", "ok"),
    ]);
    expect(classes(h)).toEqual({});
  });

  it("is excused when the run ends after its lease ran out with no later run on it", () => {
    const other = { intent: 3, script: "lock/acquire", at: 300, state: FREE };
    const h = history(runs(grant), [unknownTry]);
    h.executions.push({ ...runs(other)[0]!, seq: 1, resource: "adv1:v1:{b}:lock" });
    expect(classes(h)).toEqual({});
  });

  it("is excused when it expired while a slow run that cannot release was running", () => {
    // The settle was sent before the expiry and read back after it: the lease ended on its own.
    const slowSettle = { intent: 1, script: "engine/settle", at: 240, state: FREE };
    const h = history(runs(grant, { ...slowSettle }), [unknownTry]);
    h.executions[1] = { ...h.executions[1]!, doneAt: 300, serverMs: 300 };
    expect(classes(h)).toEqual({});
  });

  it("is excused when a slow abandon of another owner's call straddled the expiry", () => {
    const abandon = { intent: 2, script: "lock/abandon", at: 240, state: FREE };
    const h = history(runs(grant, abandon), [unknownTry, intent(2, "tryAcquire", "o2", "none")]);
    h.executions[1] = { ...h.executions[1]!, doneAt: 300, serverMs: 300 };
    expect(classes(h)).toEqual({});
  });

  it("is still reported when a release by its owner, sent before the expiry, ended it", () => {
    const release = { intent: 2, script: "lock/release", at: 240, state: FREE };
    const h = history(runs(grant, release), [unknownTry, intent(2, "tryAcquire", "o1", "none")]);
    h.executions[1] = { ...h.executions[1]!, doneAt: 300, serverMs: 300 };
    expect(classes(h)["orphan-hold"]).toBe(1);
  });

  it("is excused for a re-entry in doubt when the owner's earlier belief ended and the hold ran out", () => {
    // o1 held (lease to 200) and lost it by its deadline; its re-entry applied (count 2, lease to
    // 250) with reply and settle lost; nobody touched it after; it ran out.
    const first = { intent: 0, script: "lock/acquire", at: 50, state: held("o1", 200) };
    const reentry = { intent: 1, script: "lock/acquire", at: 100, state: held("o1", 250, 2) };
    const h = history(
      runs(first, reentry, settle),
      [
        intent(0, "tryAcquire", "o1", "ok", { holdId: 0 }),
        intent(1, "reenter", "o1", "OUTCOME_UNKNOWN"),
      ],
      [{ ...belief(0, "o1", 51, 400), abortedAt: 190, abortReason: "deadline" }],
    );
    expect(classes(h)).toEqual({});
  });

  it("is excused when probes read the untouched lease a few ms apart (PTTL truncation)", () => {
    const other = { intent: 2, script: "lock/acquire", at: 150, state: held("o1", 247) };
    const nextOwner = { intent: 3, script: "lock/acquire", at: 400, state: held("o2", 550) };
    const h = history(runs(grant, other, nextOwner), [
      unknownTry,
      intent(2, "tryAcquire", "o3", "none"),
      intent(3, "tryAcquire", "o2", "ok"),
    ]);
    expect(classes(h)).toEqual({});
  });

  it("is still reported when its lease had not run out by the end of the run", () => {
    const h = history(runs(grant), [unknownTry]);
    expect(classes(h)).toEqual({ "orphan-hold": 1 });
  });

  it("is still reported when another call ended it while it was leased", () => {
    const forced = { intent: 2, script: "lock/force-unlock", at: 200, state: FREE };
    const h = history(runs(grant, forced), [unknownTry, intent(2, "tryAcquire", "o2", "none")]);
    expect(classes(h)["orphan-hold"]).toBe(1);
  });

  it("is still reported when a renewal kept it alive", () => {
    const renewed = { intent: 3, script: "lock/extend", at: 200, state: held("o1", 600) };
    const gone = { intent: 2, script: "lock/acquire", at: 700, state: held("o2", 850) };
    const h = history(runs(grant, renewed, gone), [
      unknownTry,
      intent(3, "extend", "o1", "ok"),
      intent(2, "tryAcquire", "o2", "ok"),
    ]);
    expect(classes(h)["orphan-hold"]).toBe(1);
  });

  it("is excused when the only client told of it was a resumed hold that aborted as it was told", () => {
    const nextOwner = { intent: 2, script: "lock/acquire", at: 400, state: held("o2", 550) };
    const h = history(
      runs(grant, settle, nextOwner),
      [unknownTry, intent(2, "tryAcquire", "o2", "ok")],
      [{ ...belief(0, "o1", 120, 300), abortedAt: 120, abortReason: "deadline", resumed: true }],
    );
    expect(classes(h)).toEqual({});
  });

  it("is still reported when a client was told of the hold (it acted on it)", () => {
    const nextOwner = { intent: 2, script: "lock/acquire", at: 400, state: held("o2", 550) };
    const h = history(
      runs(grant, settle, nextOwner),
      [unknownTry, intent(2, "tryAcquire", "o2", "ok")],
      [belief(0, "o1", 120, 200)],
    );
    expect(classes(h)["orphan-hold"]).toBe(1);
  });
});

describe("oracle excuse: a leaked hold that a later abandon undid", () => {
  // o1 holds (intent 1). Its re-entry (intent 2) applied but ended OUTCOME_UNKNOWN; o1 released
  // the one hold it knew of (intent 3) and the server still held 1 for it, until intent 2's
  // background abandon took that back.
  const acquired = { intent: 1, script: "lock/acquire", at: 100, state: held("o1", 1_000) };
  const reentered = { intent: 2, script: "lock/acquire", at: 150, state: held("o1", 1_000, 2) };
  const released = { intent: 3, script: "lock/release", at: 300, state: held("o1", 1_000) };
  const intents = [
    intent(1, "tryAcquire", "o1", "ok", { holdId: 0 }),
    intent(2, "reenter", "o1", "OUTCOME_UNKNOWN"),
    intent(3, "release", "o1", "ok", { holdId: 0, endedAt: 310 }),
  ];
  const beliefs = [belief(0, "o1", 101, 300)];

  it("is excused when the next change to the hold is the abandon of the owner's call in doubt", () => {
    const abandon = { intent: 2, script: "lock/abandon", at: 400, state: FREE };
    const h = history(runs(acquired, reentered, released, abandon), intents, beliefs);
    expect(classes(h)).toEqual({});
  });

  it("is still reported when nothing undoes it", () => {
    const h = history(runs(acquired, reentered, released), intents, beliefs);
    // (and the re-entry's grant, never undone, is an orphan)
    expect(classes(h)).toEqual({ "leaked-hold": 1, "orphan-hold": 1 });
  });

  it("is still reported when another call's release, not an abandon, ends it", () => {
    const forced = { intent: 4, script: "lock/force-unlock", at: 400, state: FREE };
    const h = history(
      runs(acquired, reentered, released, forced),
      [...intents, intent(4, "tryAcquire", "o2", "none")],
      beliefs,
    );
    expect(classes(h)["leaked-hold"]).toBe(1);
  });

  it("is still reported when the abandon belongs to another owner's call", () => {
    const abandon = { intent: 4, script: "lock/abandon", at: 400, state: FREE };
    const h = history(
      runs(acquired, reentered, released, abandon),
      [...intents, intent(4, "tryAcquire", "o2", "OUTCOME_UNKNOWN")],
      beliefs,
    );
    expect(classes(h)["leaked-hold"]).toBe(1);
  });

  it("is still reported when the abandon came from a call that ended ok", () => {
    const abandon = { intent: 4, script: "lock/abandon", at: 400, state: FREE };
    const h = history(
      runs(acquired, reentered, released, abandon),
      [...intents, intent(4, "reenter", "o1", "ok")],
      beliefs,
    );
    expect(classes(h)["leaked-hold"]).toBe(1);
  });

  it("is still reported when the lease ran out before the abandon", () => {
    const short = { ...acquired, state: held("o1", 350) };
    const shortRe = { ...reentered, state: held("o1", 350, 2) };
    const shortRel = { ...released, state: held("o1", 350) };
    const abandon = { intent: 2, script: "lock/abandon", at: 400, state: FREE };
    const h = history(runs(short, shortRe, shortRel, abandon), intents, beliefs);
    expect(classes(h)["leaked-hold"]).toBe(1);
  });

  it("is still reported when the owner re-entered it again before the abandon", () => {
    const again = { intent: 5, script: "lock/acquire", at: 350, state: held("o1", 1_000, 2) };
    const abandon = { intent: 2, script: "lock/abandon", at: 400, state: held("o1", 1_000) };
    const h = history(
      runs(acquired, reentered, released, again, abandon),
      [...intents, intent(5, "reenter", "o1", "OUTCOME_UNKNOWN")],
      beliefs,
    );
    expect(classes(h)["leaked-hold"]).toBe(1);
  });
});

describe("oracle: a copy refused unapplied changes nothing", () => {
  it("a release answered LATE while the hold ran out is no release (nothing applied after the answer)", () => {
    const acquired = { intent: 0, script: "lock/acquire", at: 100, state: held("o1", 250) };
    const late = { intent: 1, script: "lock/release", at: 245, state: FREE };
    const h = history(
      runs(acquired, late),
      [
        intent(0, "tryAcquire", "o1", "ok", { holdId: 0 }),
        intent(1, "release", "o1", "OUTCOME_UNKNOWN", { holdId: 0, endedAt: 240 }),
      ],
      [{ ...belief(0, "o1", 101, 240), abortedAt: 240, abortReason: "release-failed" }],
    );
    h.executions[1] = { ...h.executions[1]!, reply: [-100, 250], doneAt: 260, serverMs: 260 };
    expect(classes(h)).toEqual({});
    // The same run answering that it released: a release applied after its caller's answer.
    h.executions[1] = { ...h.executions[1]!, reply: [1, 0, 250] };
    expect(classes(h)).toEqual({ "applied-after-answer": 1 });
  });
});

describe("oracle: a release or an abandon ends only its own owner's hold", () => {
  it("a hold that ran out while another owner's abandon ran is not that abandon's release", () => {
    const acquired = { intent: 0, script: "lock/acquire", at: 100, state: held("o1", 250) };
    const abandon = { intent: 1, script: "lock/abandon", at: 245, state: FREE };
    const ex = runs(acquired, abandon);
    const owners = ["o1", "o2"];
    const released = (owner: string) =>
      lockTransitions(ex, (i) => (i === 1 ? owner : owners[i]))[1]!.released;
    expect(released("o2")).toBe(0);
    expect(released("o1")).toBe(1);
  });
});

describe("oracle: a read-write lock's release ends only its own owner's live session", () => {
  const rw = (readers: Record<string, { count: number; fence: number; expiresAt: number }>) =>
    ({ kind: "read-write-lock", writer: FREE, readers }) as ResourceState;
  const r4 = { count: 1, fence: 4, expiresAt: 335 };
  const r7 = { count: 1, fence: 7, expiresAt: 900 };

  it("a session that ran out but is still listed, across another reader's release, is not released by it", () => {
    const ex = runs(
      { intent: 0, script: "read-write-lock/acquire-read", at: 100, state: rw({ r4, r7 }) },
      { intent: 7, script: "read-write-lock/release-read", at: 344, state: rw({ r4 }) },
    );
    const ledger = new GrantLedger();
    readWriteTransitions(ex, ledger, (i) => (i === 7 ? "r7" : "r4"));
    expect(ledger.releasesOf(7)).toBe(1); // its own session only
  });

  it("another reader's session pruned by a run is not that run's release", () => {
    const ex = runs(
      { intent: 0, script: "read-write-lock/acquire-read", at: 100, state: rw({ r4, r7 }) },
      { intent: 7, script: "read-write-lock/release-read", at: 330, state: rw({}) },
    );
    const ledger = new GrantLedger();
    readWriteTransitions(ex, ledger, (i) => (i === 7 ? "r7" : "r4"));
    expect(ledger.releasesOf(7)).toBe(1);
  });
});
