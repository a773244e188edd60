import { describe, expect, it } from "vitest";
import type {
  AdversaryHistory,
  Belief,
  BeliefSample,
  Execution,
  Intent,
  IntentKind,
  LockState,
  Primitive,
  ResourceState,
} from "../src/adversary/history.ts";
import { checkAdversaryHistory } from "../src/adversary/oracle/check.ts";

// Hand-made histories for the oracle's rules on the primitives beyond the Lock and the Semaphore
// (read-write lock, multi-lock, permit-expirable semaphore, count-down latch): each rule reports
// its broken case and stays quiet on the legal one next to it.

const A = "adv1:v1:{ab}~a:lock";
const B = "adv1:v1:{ab}~b:lock";
const RW = "adv1:v1:{r}:rw:lock";
const PES = "adv1:v1:{p}:pes";
const LATCH = "adv1:v1:{l.0}:latch";

interface Run {
  intent: number | null;
  resource: string;
  script: string;
  at: number;
  state: ResourceState;
  subject?: string;
  reply?: unknown;
}

/** Runs in execution order (seq = position), each `at` real ms, its state after the run. */
function runs(...list: Run[]): Execution[] {
  return list.map((r, seq) => ({
    seq,
    intent: r.intent,
    script: r.script,
    command: "EVALSHA",
    resource: r.resource,
    opId: null,
    copy: "normal",
    seen: true,
    sentAt: r.at,
    doneAt: r.at + 1,
    serverMs: r.at + 1,
    // An acquire run answers "granted" unless told otherwise (a permit counts as claimed then).
    reply: r.reply ?? (r.script.endsWith("/acquire") ? [1] : null),
    error: null,
    state: r.state,
    ...(r.subject === undefined ? {} : { subject: r.subject }),
  }));
}

function intent(
  id: number,
  kind: IntentKind,
  resource: string,
  owner: string,
  outcome: string,
  extra: Partial<Intent> & { primitive?: Primitive } = {},
): Intent {
  return {
    id,
    actor: owner,
    kind,
    resource,
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

function belief(
  holdId: number,
  resource: string,
  owner: string,
  fence: number,
  extra: Partial<Belief> = {},
): Belief {
  return {
    holdId,
    resource,
    owner,
    fence,
    toldAt: 0,
    releasedAt: null,
    abortedAt: null,
    abortReason: null,
    keepAlive: false,
    resumed: false,
    ...extra,
  };
}

function history(
  executions: Execution[],
  intents: Intent[],
  beliefs: Belief[] = [],
  samples: BeliefSample[] = [],
): AdversaryHistory {
  // The oracle finds an intent by its id's position: number them in order, as the ledger does.
  const position = new Map(intents.map((i, k) => [i.id, k]));
  return {
    seed: 1,
    config: "hand-made",
    faults: true,
    executions: executions.map((e) => ({
      ...e,
      intent: e.intent === null ? null : (position.get(e.intent) ?? e.intent),
    })),
    intents: intents.map((i, k) => ({ ...i, id: k })),
    beliefs,
    samples,
    final: {},
    totals: {},
  };
}

const classes = (h: AdversaryHistory) => checkAdversaryHistory(h).counts;

const lock = (owner: string | null, fence: number, expiresAt: number | null): LockState => ({
  kind: "lock",
  owner,
  fence: owner === null ? 0 : fence,
  count: owner === null ? 0 : 1,
  reserved: false,
  expiresAt: owner === null ? null : expiresAt,
});
const FREE = lock(null, 0, null);

describe("oracle: multi-lock", () => {
  const multi = (outcome: string) =>
    intent(1, "acquire", A, "m1", outcome, { primitive: "multi-lock", resources: [A, B] });

  it("an acquire told ok applied on every name", () => {
    const h = history(
      runs(
        { intent: 1, resource: A, script: "multi-lock/acquire", at: 10, state: lock("m1", 5, 500) },
        { intent: 1, resource: B, script: "multi-lock/acquire", at: 10, state: lock("m1", 6, 500) },
      ),
      [multi("ok")],
    );
    expect(classes(h)).toEqual({});
  });

  it("all or nothing: an acquire told ok that applied on one name of two is reported", () => {
    const h = history(
      runs(
        { intent: 1, resource: A, script: "multi-lock/acquire", at: 10, state: lock("m1", 5, 500) },
        { intent: 1, resource: B, script: "multi-lock/acquire", at: 10, state: FREE },
      ),
      [multi("ok")],
    );
    expect(classes(h)).toEqual({ "told-not-applied": 1 });
  });

  it("a multi-lock part and a single-lock holder of the same name believed at once overlap", () => {
    const h = history(
      runs({
        intent: 0,
        resource: A,
        script: "lock/acquire",
        at: 10,
        state: lock("single", 9, 500),
      }),
      [intent(0, "acquire", A, "single", "ok", { holdId: 1 })],
      [belief(0, A, "m1", 5), belief(1, A, "single", 9)],
      [
        { seq: 0, holdId: 0, at: 12, deadline: 100 },
        { seq: 0, holdId: 1, at: 12, deadline: 100 },
      ],
    );
    // The multi-lock part is not on the server either (a lie): the overlap is reported with it.
    expect(classes(h).overlap).toBe(1);
  });
});

describe("oracle: read-write lock", () => {
  const rw = (writer: LockState, readers: Record<string, [number, number, number]>) => ({
    kind: "read-write-lock" as const,
    writer,
    readers: Object.fromEntries(
      Object.entries(readers).map(([o, [count, fence, expiresAt]]) => [
        o,
        { count, fence, expiresAt },
      ]),
    ),
  });

  it("two read sessions believed at once share; each honest against its own lease", () => {
    const h = history(
      runs(
        {
          intent: 1,
          resource: RW,
          script: "read-write-lock/acquire-read",
          at: 10,
          state: rw(FREE, { r1: [1, 3, 500] }),
        },
        {
          intent: 2,
          resource: RW,
          script: "read-write-lock/acquire-read",
          at: 20,
          state: rw(FREE, { r1: [1, 3, 500], r2: [1, 4, 600] }),
        },
      ),
      [
        intent(1, "acquire", RW, "r1", "ok", { primitive: "read-write-lock:read", holdId: 0 }),
        intent(2, "acquire", RW, "r2", "ok", { primitive: "read-write-lock:read", holdId: 1 }),
      ],
      [belief(0, RW, "r1", 3, { mode: "read" }), belief(1, RW, "r2", 4, { mode: "read" })],
      [
        { seq: 1, holdId: 0, at: 22, deadline: 400 },
        { seq: 1, holdId: 1, at: 22, deadline: 590 },
      ],
    );
    expect(classes(h)).toEqual({});
  });

  it("a reader whose local deadline outlasts its session's lease is reported", () => {
    const h = history(
      runs({
        intent: 1,
        resource: RW,
        script: "read-write-lock/acquire-read",
        at: 10,
        state: rw(FREE, { r1: [1, 3, 200] }),
      }),
      [intent(1, "acquire", RW, "r1", "ok", { primitive: "read-write-lock:read", holdId: 0 })],
      [belief(0, RW, "r1", 3, { mode: "read" })],
      [{ seq: 0, holdId: 0, at: 12, deadline: 400 }],
    );
    expect(classes(h)).toEqual({ "dishonest-lease": 1 });
  });

  it("a writer believed beside a reader overlaps", () => {
    const h = history(
      runs({
        intent: 1,
        resource: RW,
        script: "read-write-lock/acquire-read",
        at: 10,
        state: rw(lock("w", 8, 500), { r1: [1, 3, 500] }),
      }),
      [],
      [belief(0, RW, "r1", 3, { mode: "read" }), belief(1, RW, "w", 8, { mode: "write" })],
      [
        { seq: 0, holdId: 0, at: 12, deadline: 400 },
        { seq: 0, holdId: 1, at: 12, deadline: 400 },
      ],
    );
    expect(classes(h).overlap).toBe(1);
  });

  it('a read grant for a call told "not acquired", never undone, is a phantom', () => {
    const h = history(
      runs({
        intent: 1,
        resource: RW,
        script: "read-write-lock/acquire-read",
        at: 10,
        state: rw(FREE, { r1: [1, 3, 500] }),
      }),
      [intent(1, "tryAcquire", RW, "r1", "none", { primitive: "read-write-lock:read" })],
    );
    expect(classes(h)).toEqual({ "phantom-grant": 1 });
  });
});

describe("oracle: permit-expirable semaphore", () => {
  const pes = (total: number, permits: Record<string, number>) => ({
    kind: "permit-expirable-semaphore" as const,
    total,
    permits,
  });
  const acquire = (id: number, permit: string, outcome: string) =>
    intent(id, "permit-acquire", PES, `o${id}`, outcome, {
      primitive: "permit-expirable-semaphore",
    });

  it("a grant claimed by its own acquire, released by its release, checks clean", () => {
    const h = history(
      runs(
        {
          intent: 1,
          resource: PES,
          script: "permit-semaphore/acquire",
          at: 10,
          state: pes(1, { p1: 500 }),
          subject: "p1",
        },
        {
          intent: 2,
          resource: PES,
          script: "permit-semaphore/release",
          at: 20,
          state: pes(1, {}),
          subject: "p1",
          reply: [1, 1],
        },
      ),
      [acquire(1, "p1", "ok"), intent(2, "permit-release", PES, "o1", "ok", { holdId: 0 })],
      [belief(0, PES, "p1", 1, { mode: "permit", releasedAt: 20 })],
    );
    expect(classes(h)).toEqual({});
  });

  it("a release that says it released a permit whose lease ends as it is sent released it", () => {
    const h = history(
      runs(
        {
          intent: 1,
          resource: PES,
          script: "permit-semaphore/acquire",
          at: 10,
          state: pes(1, { p1: 500 }),
          subject: "p1",
        },
        {
          intent: 2,
          resource: PES,
          script: "permit-semaphore/release",
          at: 500,
          state: pes(1, {}),
          subject: "p1",
          reply: [1, 1],
        },
      ),
      [acquire(1, "p1", "ok"), intent(2, "permit-release", PES, "o1", "ok", { holdId: 0 })],
      [belief(0, PES, "p1", 1, { mode: "permit", releasedAt: 500 })],
    );
    expect(classes(h)).toEqual({});
  });

  it("a permit whose lease ends as another run reads it, then renewed, stays its holder's", () => {
    const h = history(
      runs(
        {
          intent: 1,
          resource: PES,
          script: "permit-semaphore/acquire",
          at: 10,
          state: pes(1, { p1: 500 }),
          subject: "p1",
        },
        // Another call's run reads p1 still listed, its lease ending that millisecond.
        {
          intent: 3,
          resource: PES,
          script: "permit-semaphore/acquire",
          at: 500,
          state: pes(1, { p1: 500 }),
          subject: "p9",
        },
        // The holder's extend found it live at the server and renewed it.
        {
          intent: 4,
          resource: PES,
          script: "permit-semaphore/extend",
          at: 500,
          state: pes(1, { p1: 900 }),
          subject: "p1",
          reply: [1, 1, 400],
        },
        {
          intent: 2,
          resource: PES,
          script: "permit-semaphore/release",
          at: 600,
          state: pes(1, {}),
          subject: "p1",
          reply: [1, 1],
        },
      ),
      [
        acquire(1, "p1", "ok"),
        intent(2, "permit-release", PES, "o1", "ok", { holdId: 0 }),
        intent(3, "permit-acquire", PES, "o3", "none", { primitive: "permit-expirable-semaphore" }),
        intent(4, "permit-extend", PES, "o1", "ok", { holdId: 0 }),
      ],
      [belief(0, PES, "p1", 1, { mode: "permit", releasedAt: 600 })],
    );
    expect(classes(h)).toEqual({});
  });

  it("a run that leaves more live permits than the total has created one", () => {
    const h = history(
      runs(
        {
          intent: 1,
          resource: PES,
          script: "permit-semaphore/acquire",
          at: 10,
          state: pes(1, { p1: 500 }),
          subject: "p1",
        },
        {
          intent: 2,
          resource: PES,
          script: "permit-semaphore/acquire",
          at: 20,
          state: pes(1, { p1: 500, p2: 500 }),
          subject: "p2",
        },
      ),
      [acquire(1, "p1", "ok"), acquire(2, "p2", "ok")],
    );
    expect(classes(h)).toEqual({ "permits-created": 1 });
  });

  it("a release told ok that gave nothing back is reported; one within a ms of expiry is as the script saw it", () => {
    const told = [
      acquire(1, "p1", "ok"),
      intent(2, "permit-release", PES, "o1", "ok", { holdId: 0 }),
    ];
    const beliefsOfTold = [belief(0, PES, "p1", 1, { mode: "permit", releasedAt: 20 })];
    const gone = history(
      runs(
        {
          intent: 1,
          resource: PES,
          script: "permit-semaphore/acquire",
          at: 10,
          state: pes(1, { p1: 15 }),
          subject: "p1",
        },
        {
          intent: 2,
          resource: PES,
          script: "permit-semaphore/release",
          at: 20,
          state: pes(1, {}),
          subject: "p1",
          reply: [0, 1],
        },
      ),
      told,
      beliefsOfTold,
    );
    expect(classes(gone)).toEqual({ "release-mismatch": 1 });
    const boundary = history(
      runs(
        {
          intent: 1,
          resource: PES,
          script: "permit-semaphore/acquire",
          at: 10,
          state: pes(1, { p1: 21.5 }),
          subject: "p1",
        },
        {
          intent: 2,
          resource: PES,
          script: "permit-semaphore/release",
          at: 20,
          state: pes(1, {}),
          subject: "p1",
          reply: [1, 1],
        },
      ),
      told,
      beliefsOfTold,
    );
    expect(classes(boundary)).toEqual({});
  });

  it("a release gives back its own permit only, not another one that ran out as it ran", () => {
    const h = history(
      runs(
        {
          intent: 1,
          resource: PES,
          script: "permit-semaphore/acquire",
          at: 10,
          state: pes(2, { p1: 500 }),
          subject: "p1",
        },
        {
          intent: 2,
          resource: PES,
          script: "permit-semaphore/acquire",
          at: 12,
          state: pes(2, { p1: 500, p2: 21 }),
          subject: "p2",
        },
        {
          intent: 3,
          resource: PES,
          script: "permit-semaphore/release",
          at: 20,
          state: pes(2, {}),
          subject: "p1",
          reply: [1, 2],
        },
      ),
      [
        acquire(1, "p1", "ok"),
        acquire(2, "p2", "ok"),
        intent(3, "permit-release", PES, "o1", "ok", { holdId: 0 }),
      ],
      [belief(0, PES, "p1", 1, { mode: "permit", releasedAt: 20 })],
    );
    expect(classes(h)).toEqual({});
  });

  it("a permit believed past its lease at the server is a dishonest lease", () => {
    const h = history(
      runs({
        intent: 1,
        resource: PES,
        script: "permit-semaphore/acquire",
        at: 10,
        state: pes(1, { p1: 200 }),
        subject: "p1",
      }),
      [acquire(1, "p1", "ok")],
      [belief(0, PES, "p1", 1, { mode: "permit" })],
      [{ seq: 0, holdId: 0, at: 12, deadline: 300 }],
    );
    expect(classes(h)).toEqual({ "dishonest-lease": 1 });
  });
});

describe("oracle: count-down latch", () => {
  const count = (n: number) => ({ kind: "count-down-latch" as const, count: n });
  const latch = (id: number, kind: IntentKind, round: number, outcome: string, endedAt = 1_000) =>
    intent(id, kind, LATCH, `c-r${round}`, outcome, {
      primitive: "count-down-latch",
      round,
      endedAt,
    });
  const set = (i: number, at: number, n: number): Run => ({
    intent: i,
    resource: LATCH,
    script: "latch/try-set-count",
    at,
    state: count(n),
  });
  const down = (i: number, at: number, n: number): Run => ({
    intent: i,
    resource: LATCH,
    script: "latch/count-down",
    at,
    state: count(n),
  });

  it("a round counted out by its own calls, each once, opens; its await is told open after", () => {
    const h = history(runs(set(0, 10, 2), down(1, 20, 1), down(2, 30, 0)), [
      latch(0, "latch-set", 1, "ok"),
      latch(1, "latch-count-down", 1, "ok"),
      latch(2, "latch-count-down", 1, "ok"),
      latch(3, "latch-await", 1, "ok", 40),
    ]);
    expect(classes(h)).toEqual({});
  });

  it("a late count-down of an earlier round counting the next one down is reported", () => {
    const h = history(runs(set(0, 10, 1), down(1, 20, 0), set(2, 30, 2), down(1, 40, 1)), [
      latch(0, "latch-set", 1, "ok"),
      latch(1, "latch-count-down", 1, "ok"),
      latch(2, "latch-set", 2, "ok"),
    ]);
    // Counted in a round not its own, and twice in all.
    expect(classes(h)).toEqual({ "latch-early": 1, "count-mismatch": 1 });
  });

  it("an await told open before its round reached zero is reported", () => {
    const h = history(runs(set(0, 10, 2), down(1, 20, 1)), [
      latch(0, "latch-set", 1, "ok"),
      latch(1, "latch-count-down", 1, "ok"),
      latch(3, "latch-await", 1, "ok", 25),
    ]);
    expect(classes(h)).toEqual({ "latch-early": 1 });
  });

  it("a count-down that failed for sure and applied anyway is reported; an unknown one may have", () => {
    const h = history(runs(set(0, 10, 3), down(1, 20, 2), down(2, 30, 1)), [
      latch(0, "latch-set", 1, "ok"),
      latch(1, "latch-count-down", 1, "BACKEND_ERROR"),
      latch(2, "latch-count-down", 1, "OUTCOME_UNKNOWN"),
    ]);
    expect(classes(h)).toEqual({ "count-mismatch": 1 });
  });
});

describe("oracle excuse: a re-entry's orphan grant that ran out untouched", () => {
  const F = "adv1:v1:{f}:fair:lock";
  const counted = (count: number, expiresAt: number | null): LockState => ({
    ...lock("f1", 5, expiresAt),
    count,
  });
  // The owner's acquire was told at 10 ms and ended; its re-entry was sent within that same
  // millisecond, applied (count 2), and both its reply and its settle were lost: it ended
  // OUTCOME_UNKNOWN, and the lease (to 100 ms) ran out with nobody acting on it.
  const shape = (firstEndedAt: number) =>
    history(
      runs(
        { intent: 0, resource: F, script: "fair-lock/acquire", at: 9, state: counted(1, 100) },
        { intent: 1, resource: F, script: "fair-lock/acquire", at: 10, state: counted(2, 100) },
        { intent: 2, resource: F, script: "fair-lock/acquire", at: 150, state: lock("f2", 6, 400) },
      ),
      [
        intent(0, "acquire", F, "f1", "ok", {
          primitive: "fair-lock",
          holdId: 0,
          endedAt: firstEndedAt,
        }),
        intent(1, "reenter", F, "f1", "OUTCOME_UNKNOWN", { primitive: "fair-lock", startedAt: 10 }),
        intent(2, "acquire", F, "f2", "ok", { primitive: "fair-lock" }),
      ],
      [belief(0, F, "f1", 5, { toldAt: 10 })],
    );

  it("the owner's earlier hold, told in the same ms the re-entry was sent, is not this grant's", () => {
    expect(classes(shape(10))).toEqual({});
  });

  it("a hold told by a call still running when the re-entry began may be this grant's: reported", () => {
    expect(classes(shape(11))).toEqual({ "orphan-hold": 1 });
  });
});

describe("oracle excuse: a permit's orphan grant that ran out untouched", () => {
  const pes = (permits: Record<string, number>) => ({
    kind: "permit-expirable-semaphore" as const,
    total: 2,
    permits,
  });
  // The acquire applied (its reply and its settle lost: OUTCOME_UNKNOWN); the permit's lease ran
  // out at 100 while a slow release of a permit (sent at 99, read back at 110) ran.
  const shape = (releasing: string) => {
    const h = history(
      runs(
        {
          intent: 0,
          resource: PES,
          script: "permit-semaphore/acquire",
          at: 10,
          state: pes({ p1: 100 }),
          subject: "p1",
        },
        {
          intent: 1,
          resource: PES,
          script: "permit-semaphore/release",
          at: 99,
          state: pes({}),
          subject: releasing,
          reply: [0, 2],
        },
      ),
      [
        intent(0, "permit-acquire", PES, "o0", "OUTCOME_UNKNOWN", {
          primitive: "permit-expirable-semaphore",
        }),
        intent(1, "permit-release", PES, "o1", "NOT_HELD", {
          primitive: "permit-expirable-semaphore",
        }),
      ],
    );
    h.executions[1] = { ...h.executions[1]!, doneAt: 110, serverMs: 110 };
    return h;
  };

  it("is excused when the slow run released another permit", () => {
    expect(classes(shape("p9"))).toEqual({});
  });

  it("is reported when the run released this very permit", () => {
    expect(classes(shape("p1"))["orphan-hold"]).toBe(1);
  });
});

describe("oracle: a lease at the millisecond boundary", () => {
  // The probe reads a lease's end as server time + PTTL (whole ms): a busy poll sent in the
  // millisecond the previous snapshot said the lease ended may still find it there.
  const polls = (after: LockState) =>
    history(
      runs(
        { intent: 0, resource: A, script: "lock/acquire", at: 10, state: lock("h", 5, 100.4) },
        { intent: 1, resource: A, script: "lock/acquire", at: 100.5, state: after },
      ),
      [intent(0, "acquire", A, "h", "ok"), intent(1, "tryAcquire", A, "w", "none")],
    );

  it("a hold a later run still finds (same owner and fence) was not granted again by it", () => {
    expect(classes(polls(lock("h", 5, 100.9)))).toEqual({});
  });

  it("a new hold found after the old one's end is a grant to the run's call", () => {
    expect(classes(polls(lock("w", 6, 300)))).toEqual({ "phantom-grant": 1 });
  });
});

describe("oracle: a leaked hold after a nested release in doubt", () => {
  const nested = (innerOutcome: string) =>
    history(
      runs(
        { intent: 0, resource: A, script: "lock/acquire", at: 10, state: lock("o", 5, 500) },
        {
          intent: 1,
          resource: A,
          script: "lock/acquire",
          at: 20,
          state: { ...lock("o", 5, 500), count: 2 },
        },
        // The inner release: every copy refused (its outcome unknown to the owner), then the outer.
        { intent: 3, resource: A, script: "lock/release", at: 40, state: lock("o", 5, 500) },
      ),
      [
        intent(0, "acquire", A, "o", "ok", { holdId: 0 }),
        intent(1, "reenter", A, "o", "ok", { holdId: 1 }),
        intent(2, "release", A, "o", innerOutcome, { holdId: 1, endedAt: 35 }),
        intent(3, "release", A, "o", "ok", { holdId: 0, endedAt: 45 }),
      ],
      [
        belief(0, A, "o", 5, { releasedAt: 38 }),
        belief(1, A, "o", 5, { toldAt: 20, releasedAt: 30 }),
      ],
    );

  it("is not reported when the owner's other release ended in doubt", () => {
    expect(classes(nested("OUTCOME_UNKNOWN"))["leaked-hold"]).toBeUndefined();
  });

  it("is reported when both releases were told ok", () => {
    expect(classes(nested("ok"))["leaked-hold"]).toBe(1);
  });
});
