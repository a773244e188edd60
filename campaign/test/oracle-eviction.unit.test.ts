import { describe, expect, it } from "vitest";
import type {
  AdversaryHistory,
  Belief,
  DataFault,
  EvictionTold,
  Execution,
  ResourceState,
} from "../src/adversary/history.ts";
import {
  leaseLostToEviction,
  overlapAfterEviction,
} from "../src/adversary/oracle/eviction-excuses.ts";

// Finding 4's excuses on hand-made histories: an eviction breaks exclusion only for clients that
// were told the server evicts (initialize()'s policy, the eviction-policy event).

const LOCK = "adv1:v1:{a}:lock";
const FREE: ResourceState = {
  kind: "lock",
  owner: null,
  fence: 0,
  count: 0,
  reserved: false,
  expiresAt: null,
};
const held = (owner: string, fence: number): ResourceState => ({
  kind: "lock",
  owner,
  fence,
  count: 1,
  reserved: false,
  expiresAt: 10_000,
});

function runs(...list: { script: string; at: number; state: ResourceState }[]): Execution[] {
  return list.map((r, seq) => ({
    seq,
    intent: r.script.startsWith("world/") ? null : seq,
    script: r.script,
    command: "EVALSHA",
    resource: LOCK,
    opId: null,
    copy: "normal",
    seen: !r.script.startsWith("world/"),
    sentAt: r.at,
    doneAt: r.at + 1,
    serverMs: r.at + 1,
    reply: null,
    error: null,
    state: r.state,
  }));
}

function belief(holdId: number, owner: string, fence: number, toldAt: number, client: number) {
  const b: Belief = {
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
    client,
  };
  return b;
}

const EXECUTIONS = runs(
  { script: "lock/acquire", at: 100, state: held("A", 11) },
  { script: "world/eviction", at: 200, state: FREE },
  { script: "lock/acquire", at: 300, state: held("B", 12) },
);
const EVICTION: DataFault[] = [{ kind: "eviction", seq: 1, at: 201, evicted: 1 }];

function history(told: EvictionTold[], dataFaults = EVICTION): AdversaryHistory {
  return {
    seed: 1,
    config: "hand-made",
    faults: true,
    executions: EXECUTIONS,
    intents: [],
    beliefs: [],
    samples: [],
    final: {},
    totals: {},
    dataFaults,
    evictionTold: told,
  };
}

const TOLD_BOTH: EvictionTold[] = [
  { client: 1, at: 50, policy: "volatile-ttl" },
  { client: 2, at: 250, policy: "volatile-ttl" },
];
const older = belief(0, "A", 11, 101, 1);
const newer = belief(1, "B", 12, 301, 2);

describe("eviction excuses", () => {
  it("excuse an overlap and a lease lie when every client involved was told the server evicts", () => {
    expect(overlapAfterEviction(history(TOLD_BOTH), EXECUTIONS, older, newer)).toBe(true);
    expect(leaseLostToEviction(history(TOLD_BOTH), EXECUTIONS, older, 2)).toBe(true);
  });

  it("excuse nothing for a client told noeviction, told too late, or told nothing", () => {
    const noeviction = [TOLD_BOTH[0]!, { client: 2, at: 250, policy: "noeviction" }];
    expect(overlapAfterEviction(history(noeviction), EXECUTIONS, older, newer)).toBe(false);
    const late = [{ client: 1, at: 400, policy: "volatile-ttl" }, TOLD_BOTH[1]!];
    expect(overlapAfterEviction(history(late), EXECUTIONS, older, newer)).toBe(false);
    expect(leaseLostToEviction(history(late), EXECUTIONS, older, 2)).toBe(false);
    expect(leaseLostToEviction(history([]), EXECUTIONS, older, 2)).toBe(false);
  });

  it("excuse nothing without an eviction between, or before it", () => {
    expect(overlapAfterEviction(history(TOLD_BOTH, []), EXECUTIONS, older, newer)).toBe(false);
    expect(leaseLostToEviction(history(TOLD_BOTH), EXECUTIONS, older, 0)).toBe(false);
    const toldAfter = belief(0, "A", 11, 250, 1);
    expect(leaseLostToEviction(history(TOLD_BOTH), EXECUTIONS, toldAfter, 2)).toBe(false);
  });
});
