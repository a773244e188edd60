import { describe, expect, it } from "vitest";
import type {
  AdversaryHistory,
  Belief,
  DataFault,
  Execution,
  ResourceState,
} from "../src/adversary/history.ts";
import { GrantLedger } from "../src/adversary/oracle/grant-ledger.ts";
import {
  checkRollbackDetected,
  grantsErasedByRollback,
  leaseLostToRollback,
  overlapAfterRollback,
} from "../src/adversary/oracle/rollback-checks.ts";

// Finding 3's rules on hand-made histories: a rollback to an older snapshot excuses exactly what
// docs/guarantees.md ("Rollback detection") allows, and a grant a client could have refused is not.

const LOCK = "adv1:v1:{a}:lock";
const FREE: ResourceState = {
  kind: "lock",
  owner: null,
  fence: 0,
  count: 0,
  reserved: false,
  expiresAt: null,
};
const held = (owner: string, fence: number, expiresAt = 10_000): ResourceState => ({
  kind: "lock",
  owner,
  fence,
  count: 1,
  reserved: false,
  expiresAt,
});

/** A granting run's reply: status, fence, count, pttl, six more, then the epochs and server ms. */
const grantReply = (fence: number, epochLeft: number) => [
  1,
  fence,
  1,
  500,
  0,
  0,
  0,
  0,
  0,
  0,
  epochLeft,
  -1,
  0,
];

interface Run {
  script: string;
  at: number;
  state: ResourceState;
  intent?: number | null;
  client?: number;
  reply?: unknown;
  seen?: boolean;
}

function runs(...list: Run[]): Execution[] {
  return list.map((r, seq) => ({
    seq,
    intent: r.intent ?? null,
    script: r.script,
    command: "EVALSHA",
    resource: LOCK,
    opId: null,
    copy: "normal",
    seen: r.seen ?? r.client !== undefined,
    sentAt: r.at,
    doneAt: r.at + 1,
    serverMs: r.at + 1,
    reply: r.reply ?? null,
    error: null,
    state: r.state,
    ...(r.client === undefined ? {} : { client: r.client }),
  }));
}

function belief(holdId: number, owner: string, fence: number, toldAt: number): Belief {
  return {
    holdId,
    resource: LOCK,
    owner,
    fence,
    toldAt,
    releasedAt: null,
    abortedAt: null,
    abortReason: null,
    keepAlive: false,
    resumed: false,
  };
}

function history(executions: Execution[], dataFaults: DataFault[]): AdversaryHistory {
  return {
    seed: 1,
    config: "hand-made",
    faults: true,
    quarantineMs: 2_000,
    executions,
    intents: [],
    beliefs: [],
    samples: [],
    final: {},
    totals: {},
    dataFaults,
  };
}

// Client 1 is granted at epoch 5 (after the snapshot), the data set goes back to epoch 3.
const BEFORE = [
  {
    script: "lock/acquire",
    at: 100,
    state: held("A", 11),
    intent: 0,
    client: 1,
    reply: grantReply(11, 5),
  },
  { script: "world/rollback", at: 200, state: FREE },
];
const ROLLBACK: DataFault[] = [
  { kind: "snapshot", seq: 0, at: 50 },
  { kind: "rollback", seq: 1, at: 201 },
];

function grantsChecked(executions: Execution[]) {
  const ledger = new GrantLedger();
  for (const e of executions) if (e.script === "lock/acquire") ledger.add(e, 1, 0);
  return checkRollbackDetected(history(executions, ROLLBACK), ledger);
}

describe("rollback detection", () => {
  it("reports a grant that left an epoch no higher than its client had been shown", () => {
    const ex = runs(...BEFORE, {
      script: "lock/acquire",
      at: 300,
      state: held("B", 12),
      intent: 1,
      client: 1,
      reply: grantReply(12, 4),
    });
    const found = grantsChecked(ex);
    expect(found.map((v) => [v.class, v.seq])).toEqual([["rollback-undetected", 2]]);
  });

  it("accepts the same grant to a client shown nothing (one made per call), or once the epoch passed", () => {
    const fresh = runs(...BEFORE, {
      script: "lock/acquire",
      at: 300,
      state: held("B", 12),
      intent: 1,
      client: 2,
      reply: grantReply(12, 4),
    });
    expect(grantsChecked(fresh)).toEqual([]);
    const passed = runs(...BEFORE, {
      script: "lock/acquire",
      at: 300,
      state: held("B", 12),
      intent: 1,
      client: 1,
      reply: grantReply(12, 6),
    });
    expect(grantsChecked(passed)).toEqual([]);
  });

  it("does not judge runs without the quarantine (no epochs)", () => {
    const ex = runs(
      {
        script: "lock/acquire",
        at: 100,
        state: held("A", 11),
        intent: 0,
        client: 1,
        reply: grantReply(11, -1),
      },
      {
        script: "lock/acquire",
        at: 300,
        state: held("B", 12),
        intent: 1,
        client: 1,
        reply: grantReply(12, -1),
      },
    );
    expect(grantsChecked(ex)).toEqual([]);
  });
});

describe("overlap across a rollback", () => {
  const older = belief(0, "A", 11, 101);
  const newer = belief(1, "B", 12, 301);

  it("is excused for a grant its client could not have refused", () => {
    const ex = runs(...BEFORE, {
      script: "lock/acquire",
      at: 300,
      state: held("B", 12),
      intent: 1,
      client: 2,
      reply: grantReply(12, 4),
    });
    expect(overlapAfterRollback(history(ex, ROLLBACK), ex, older, newer)).toBe(true);
  });

  it("is not excused when the client had been shown a lost grant, nor without a rollback between", () => {
    const seeing = runs(...BEFORE, {
      script: "lock/acquire",
      at: 300,
      state: held("B", 12),
      intent: 1,
      client: 1,
      reply: grantReply(12, 4),
    });
    expect(overlapAfterRollback(history(seeing, ROLLBACK), seeing, older, newer)).toBe(false);
    const fresh = runs(...BEFORE, {
      script: "lock/acquire",
      at: 300,
      state: held("B", 12),
      intent: 1,
      client: 2,
      reply: grantReply(12, 4),
    });
    expect(overlapAfterRollback(history(fresh, []), fresh, older, newer)).toBe(false);
    const toldLater = belief(0, "A", 11, 250);
    expect(overlapAfterRollback(history(fresh, ROLLBACK), fresh, toldLater, newer)).toBe(false);
  });
});

describe("leases and grants across a rollback", () => {
  it("a hold told before the rollback may be believed past the server's lease until it renews", () => {
    const b = belief(0, "A", 11, 101);
    const ex = runs(...BEFORE, {
      script: "lock/acquire",
      at: 300,
      state: FREE,
      intent: 2,
      client: 3,
    });
    expect(leaseLostToRollback(history(ex, ROLLBACK), ex, b, 2)).toBe(true);
    expect(leaseLostToRollback(history(ex, ROLLBACK), ex, b, 0)).toBe(false);
    const renewed = runs(...BEFORE, {
      script: "lock/extend",
      at: 300,
      state: held("A", 11, 900),
      intent: 3,
      client: 1,
    });
    expect(leaseLostToRollback(history(renewed, ROLLBACK), renewed, b, 2)).toBe(false);
    expect(leaseLostToRollback(history(ex, []), ex, b, 2)).toBe(false);
  });

  it("counts a grant the rollback erased, not one it restored", () => {
    const ex = runs(...BEFORE);
    expect(grantsErasedByRollback(history(ex, ROLLBACK), ex, { id: 0, owner: "A" })).toBe(1);
    const kept = runs(BEFORE[0]!, { script: "world/rollback", at: 200, state: held("A", 11) });
    expect(grantsErasedByRollback(history(kept, ROLLBACK), kept, { id: 0, owner: "A" })).toBe(0);
    expect(grantsErasedByRollback(history(ex, []), ex, { id: 0, owner: "A" })).toBe(0);
  });
});
