import { describe, expect, it } from "vitest";
import type {
  AdversaryHistory,
  Execution,
  Intent,
  PlannedWait,
  QueuedWaiter,
  ResourceState,
} from "../src/adversary/history.ts";
import { checkAdversaryHistory } from "../src/adversary/oracle/check.ts";

// Hand-made histories of one-permit semaphores with two waiters, W (queued first) and X: FIFO
// (`lost-place`) is broken when W's direct grant lapses while W's call is still waiting and W's
// client had planned to poll after the grant's claim deadline; not when it planned in time and
// its process ran late, nor when its request was sent in time and the world delayed it, nor
// when W had given up.

const SEM = "adv1:v1:{s}:sem";
const PES = "adv1:v1:{p}:pes";
/** W's grant: made at 200 (server ms), claimable until 260 (a 60 ms claim window). */
const GRANTED_AT = 200;
const CLAIM_BY = 260;

interface Run {
  readonly intent: number;
  readonly script: string;
  readonly subject: string;
  /** Server ms of the run (also when it was sent and answered, unless `requestedAt` says). */
  readonly at: number;
  readonly requestedAt?: number;
  readonly granted?: boolean;
  readonly queue: readonly string[];
  /** Waiter → claim deadline (a semaphore's grants; a permit semaphore's permits). */
  readonly grants?: Readonly<Record<string, number>>;
}

const queued = (ids: readonly string[], pollBy = 5_000): QueuedWaiter[] =>
  ids.map((waiter) => ({ waiter, pollBy }));

function semState(r: Run): ResourceState {
  const grants = r.grants ?? {};
  const reserved = Object.keys(grants).length;
  return { kind: "semaphore", available: 0, total: 1, reserved, grants, queue: queued(r.queue) };
}

function pesState(r: Run): ResourceState {
  return {
    kind: "permit-expirable-semaphore",
    total: 1,
    permits: { ...r.grants },
    queue: queued(r.queue),
  };
}

function executions(
  resource: string,
  state: (r: Run) => ResourceState,
  list: readonly Run[],
): Execution[] {
  return list.map((r, seq) => ({
    seq,
    intent: r.intent,
    script: r.script,
    command: "EVALSHA",
    resource,
    opId: null,
    copy: "normal",
    seen: true,
    requestedAt: r.requestedAt ?? r.at - 1,
    sentAt: r.at - 1,
    doneAt: r.at + 1,
    serverMs: r.at,
    reply: [r.granted ? 1 : 0, 0, 1, r.queue.length],
    error: null,
    state: state(r),
    subject: r.subject,
  }));
}

function intent(id: number, resource: string, endedAt: number, outcome: string): Intent {
  return {
    id,
    actor: `S${id}`,
    kind: resource === SEM ? "sem-acquire" : "permit-acquire",
    primitive: resource === SEM ? "semaphore" : "permit-expirable-semaphore",
    resource,
    owner: `S${id}-1`,
    startedAt: 90,
    endedAt,
    outcome,
    fence: null,
    permits: 1,
    holdId: null,
  };
}

/**
 * W (intent 0) queued at 100, X (intent 1) at 110; intent 2 releases at 200, which grants W.
 * `lapse`: the next run (X's poll at `lapseAt`) finds W's grant lapsed and X takes the permit;
 * W polls at `wPollsAt` and queues again. Otherwise W claims at `wPollsAt`.
 */
function scenario(
  kind: "semaphore" | "permit-expirable-semaphore",
  w: {
    plannedAt: number;
    sleepMs: number;
    pollsAt: number;
    requestedAt?: number;
    endedAt?: number;
    lapse: boolean;
  },
): AdversaryHistory {
  const resource = kind === "semaphore" ? SEM : PES;
  const state = kind === "semaphore" ? semState : pesState;
  const wQueues = { intent: 0, script: `${kind}/acquire`, subject: "w" };
  const xPolls = { intent: 1, script: `${kind}/acquire`, subject: "x" };
  const list: Run[] = [
    { ...wQueues, at: 100, queue: ["w"] },
    { ...xPolls, at: 110, queue: ["w", "x"] },
    {
      intent: 2,
      script: `${kind}/release`,
      subject: "r",
      at: GRANTED_AT,
      queue: ["x"],
      grants: { w: CLAIM_BY },
    },
  ];
  const wPoll = {
    ...wQueues,
    at: w.pollsAt,
    ...(w.requestedAt === undefined ? {} : { requestedAt: w.requestedAt }),
  };
  if (w.lapse)
    list.push(
      { ...xPolls, at: 300, queue: [], grants: { x: 360 } },
      { ...xPolls, at: 310, queue: [], granted: true },
      { ...wPoll, queue: ["w"] },
    );
  else list.push({ ...wPoll, queue: ["x"], granted: true });
  const waits: PlannedWait[] = [
    { intent: 0, at: 101, sleepMs: 20 },
    { intent: 0, at: w.plannedAt, sleepMs: w.sleepMs },
  ];
  return {
    seed: 1,
    config: "hand-made",
    faults: false,
    executions: executions(resource, state, list),
    intents: [
      intent(0, resource, w.endedAt ?? 2_000, w.lapse ? "ACQUIRE_TIMEOUT" : "ok"),
      intent(1, resource, 320, "ok"),
      { ...intent(2, resource, 205, "ok"), kind: "sem-release" },
    ],
    beliefs: [],
    samples: [],
    final: {},
    totals: kind === "semaphore" ? { [SEM]: 1 } : {},
    waits,
  };
}

const lostPlaces = (h: AdversaryHistory) =>
  checkAdversaryHistory(h).violations.filter((v) => v.class === "lost-place");

describe("oracle: FIFO (a queued waiter keeps its place while it polls as planned)", () => {
  for (const kind of ["semaphore", "permit-expirable-semaphore"] as const) {
    describe(kind, () => {
      it("W planned to poll 140 ms after its grant's claim deadline; X took the permit: lost-place", () => {
        const lost = lostPlaces(
          scenario(kind, { plannedAt: 150, sleepMs: 250, pollsAt: 402, lapse: true }),
        );
        expect(lost).toHaveLength(1);
        expect(lost[0]).toMatchObject({ intent: 0, seq: 3 });
        expect(lost[0]!.detail).toContain("planned to poll 140 ms after the deadline");
      });

      it("W planned to poll inside the claim window, and its process sent the poll late: excused", () => {
        const h = scenario(kind, { plannedAt: 150, sleepMs: 100, pollsAt: 402, lapse: true });
        expect(lostPlaces(h)).toEqual([]);
      });

      it("W heard its answer only after the grant and planned a sleep inside the claim window: excused", () => {
        // planned at 250 (its reply came 50 ms after the grant was made) a 50 ms sleep
        const h = scenario(kind, { plannedAt: 250, sleepMs: 50, pollsAt: 302, lapse: true });
        expect(lostPlaces(h)).toEqual([]);
      });

      it("W's poll was sent in time, and the world ran it late: excused", () => {
        const h = scenario(kind, {
          plannedAt: 150,
          sleepMs: 250,
          pollsAt: 402,
          requestedAt: 259,
          lapse: true,
        });
        expect(lostPlaces(h)).toEqual([]);
      });

      it("W had given up before the claim deadline: excused", () => {
        const h = scenario(kind, {
          plannedAt: 150,
          sleepMs: 250,
          pollsAt: 402,
          endedAt: 250,
          lapse: true,
        });
        expect(lostPlaces(h)).toEqual([]);
      });

      it("W claimed its grant in time: no place lost", () => {
        const h = scenario(kind, { plannedAt: 150, sleepMs: 100, pollsAt: 251, lapse: false });
        expect(lostPlaces(h)).toEqual([]);
      });

      it("either outcome within the boundary tolerance of the claim deadline", () => {
        // planned 1 ms and sent 2 ms after the deadline
        const h = scenario(kind, { plannedAt: 150, sleepMs: 111, pollsAt: 263, lapse: true });
        expect(lostPlaces(h)).toEqual([]);
      });
    });
  }

  it("a waiter dropped from the queue by a poll deadline it planned to miss: lost-place", () => {
    // W declared it would poll by 150, then planned a sleep to 400; X's run at 300 finds it dead
    // at the head and drops it; W queues again behind X.
    const list: Run[] = [
      { intent: 0, script: "semaphore/acquire", subject: "w", at: 100, queue: ["w"] },
      { intent: 1, script: "semaphore/acquire", subject: "x", at: 110, queue: ["w", "x"] },
      { intent: 1, script: "semaphore/acquire", subject: "x", at: 300, queue: ["x"] },
      { intent: 0, script: "semaphore/acquire", subject: "w", at: 402, queue: ["x", "w"] },
    ];
    const executionsOf = executions(SEM, semState, list).map((e, i) =>
      i === 0 || i === 1
        ? {
            ...e,
            state: {
              ...(e.state as Extract<ResourceState, { kind: "semaphore" }>),
              queue: [
                { waiter: "w", pollBy: 150 },
                ...(i === 1 ? [{ waiter: "x", pollBy: 5_000 }] : []),
              ],
            },
          }
        : e,
    );
    const h: AdversaryHistory = {
      ...scenario("semaphore", { plannedAt: 101, sleepMs: 300, pollsAt: 402, lapse: true }),
      executions: executionsOf,
      waits: [{ intent: 0, at: 101, sleepMs: 300 }],
    };
    const lost = lostPlaces(h);
    expect(lost).toHaveLength(1);
    expect(lost[0]!.detail).toContain("place in the queue");
  });
});
