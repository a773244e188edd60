import type {
  AdversaryHistory,
  Execution,
  Intent,
  PlannedWait,
  ResourceState,
} from "../history.ts";
import { BOUNDARY_TOLERANCE_MS, type AdversaryViolation } from "./violation.ts";

type QueuedState = Extract<ResourceState, { kind: "semaphore" | "permit-expirable-semaphore" }>;

/** A waiter's place at the server: in the queue, or a direct grant waiting for its claim. */
interface Place {
  readonly kind: "queue" | "grant";
  /** Server ms by which the waiter must poll to keep it (poll deadline, claim deadline). */
  readonly deadline: number;
  /** The run that made it (or last refreshed a queue place's deadline), and its server ms. */
  readonly madeSeq: number;
  readonly madeAt: number;
  /** Its index in the queue (a grant: -1). */
  readonly index: number;
}

/**
 * FIFO, as both semaphores document it: a waiter that polls as it promised keeps its place until
 * it is served. The queue and the direct grants are read after every run; a place is lost when a
 * waiter's grant goes away without its own claim, or it leaves the queue (or moves back in it)
 * other than to a grant. That is a violation when its call was still waiting and its client had
 * planned to be late: its first request after the place was made (or the end of its call) came
 * after the place's deadline, and so did the poll it had planned (its last `waited` sleep
 * before it), a sleep longer than the place's whole window (a grant's claim window; a queued
 * waiter's time to its declared poll deadline). What the world does to a request sent in time (held back, queued behind others, a
 * server fault) is not the client's doing: only the request's time counts. Nor is a poll planned
 * in time that a loaded process sent late (as a fault would freeze a client). Either outcome is
 * accepted within the boundary tolerance. Histories without queues in their states (recorded
 * before) are not checked.
 */
export function checkQueueOrder(
  history: AdversaryHistory,
  byResource: ReadonlyMap<string, readonly Execution[]>,
): AdversaryViolation[] {
  const out: AdversaryViolation[] = [];
  const byIntent = new Map<number, Execution[]>();
  const intentOf = new Map<string, number>();
  const waits = new Map<number, PlannedWait[]>();
  for (const w of history.waits ?? []) {
    const list = waits.get(w.intent) ?? [];
    list.push(w);
    waits.set(w.intent, list);
  }
  for (const e of history.executions) {
    if (e.intent === null) continue;
    const list = byIntent.get(e.intent) ?? [];
    list.push(e);
    byIntent.set(e.intent, list);
    if (e.subject !== undefined && /\/acquire$/.test(e.script)) intentOf.set(e.subject, e.intent);
  }
  for (const runs of byResource.values()) {
    const kind = runs[0]?.state.kind;
    if (kind !== "semaphore" && kind !== "permit-expirable-semaphore") continue;
    for (const lost of lostPlaces(runs)) {
      const id = intentOf.get(lost.waiter);
      const intent = id === undefined ? undefined : history.intents[id];
      if (intent === undefined) continue;
      const late = lateness(
        intent,
        byIntent.get(intent.id) ?? [],
        lost.place,
        waits.get(intent.id) ?? [],
      );
      if (late === null) continue;
      out.push({
        class: "lost-place",
        resource: lost.at.resource,
        intent: intent.id,
        seq: lost.at.seq,
        detail:
          `waiter ${lost.waiter} lost its ${lost.place.kind === "grant" ? "direct grant" : "place in the queue"} ` +
          `(deadline ${lost.place.deadline}, lost at run #${lost.at.seq}) while its call was waiting: ` +
          `it had planned to poll ${late.plannedMs.toFixed(0)} ms after the deadline (and did, ${late.ms.toFixed(0)} ms after)`,
      });
    }
  }
  return out;
}

/** Every place lost in one resource's runs, with the run that showed it gone. */
export function lostPlaces(
  runs: readonly Execution[],
): { waiter: string; place: Place; at: Execution }[] {
  const out: { waiter: string; place: Place; at: Execution }[] = [];
  let places = new Map<string, Place>();
  for (const e of runs) {
    const state = e.state as QueuedState;
    if (state.queue === undefined) return out;
    const now = placesAfter(e, state, places);
    for (const [waiter, place] of places) {
      const next = now.get(waiter);
      if (next?.kind === "grant") continue; // queued → granted, or still granted
      const own = e.subject === waiter;
      // The waiter's own run: a claim (granted), or its abandon (it gave up).
      if (own && (granted(e) || /\/abandon$/.test(e.script))) continue;
      if (place.kind === "grant") {
        // Gone, or back in the queue, without the waiter's claim: it lapsed.
        out.push({ waiter, place, at: e });
        continue;
      }
      // A queue place: gone, not to a grant (dropped), or moved back (dropped and queued again
      // at the tail). A try-only last poll of the waiter's own may leave without a grant.
      if (next === undefined ? !own : next.index > place.index) out.push({ waiter, place, at: e });
    }
    places = now;
  }
  return out;
}

/** The places after run `e`: queued waiters, unclaimed grants. */
function placesAfter(
  e: Execution,
  state: QueuedState,
  before: ReadonlyMap<string, Place>,
): Map<string, Place> {
  const now = new Map<string, Place>();
  state.queue!.forEach((q, index) => {
    const was = before.get(q.waiter);
    // A queue place keeps the run that made it, unless the waiter's own poll renewed its promise.
    const kept = was?.kind === "queue" && e.subject !== q.waiter;
    const made = kept ? { madeSeq: was.madeSeq, madeAt: was.madeAt } : madeHere(e);
    now.set(q.waiter, { kind: "queue", deadline: q.pollBy, ...made, index });
  });
  if (state.kind === "semaphore") {
    for (const [waiter, deadline] of Object.entries(state.grants ?? {})) {
      const was = before.get(waiter);
      const made = was?.kind === "grant" ? was : madeHere(e);
      now.set(waiter, {
        kind: "grant",
        deadline,
        madeSeq: made.madeSeq,
        madeAt: made.madeAt,
        index: -1,
      });
    }
  } else {
    // A permit under a waiter's id that someone else's run made is a direct grant until the
    // waiter's own run claims it (from then on it is a held permit, not a place).
    for (const [id, expiry] of Object.entries(state.permits)) {
      const was = before.get(id);
      const grant = was?.kind === "grant" || (was?.kind === "queue" && e.subject !== id);
      if (grant && e.subject !== id)
        now.set(
          id,
          was?.kind === "grant"
            ? was
            : { kind: "grant", deadline: expiry, ...madeHere(e), index: -1 },
        );
    }
  }
  return now;
}

const madeHere = (e: Execution) => ({ madeSeq: e.seq, madeAt: e.serverMs });

const granted = (e: Execution) => Array.isArray(e.reply) && Number(e.reply[0]) === 1;

/**
 * How late the waiter's client acted on `place` past its deadline, and how late it had planned
 * to act (its last planned sleep before that), or null when it acted in time, had given up, had
 * planned to poll in time (its process then ran late: a loaded machine freezes a client as a
 * fault would), had planned a sleep no longer than the place's window (it heard its last answer
 * only after the place was made: as late, for the same reasons), or no plan of it is known.
 */
function lateness(
  intent: Intent,
  runs: readonly Execution[],
  place: Place,
  waits: readonly PlannedWait[],
): { ms: number; plannedMs: number } | null {
  // Its first request after the place was made (whatever the world then did with it), or the
  // end of its call (it gave up, or was answered otherwise).
  let acted = intent.endedAt ?? Infinity;
  for (const e of runs)
    if (e.seq > place.madeSeq) acted = Math.min(acted, e.requestedAt ?? e.sentAt);
  const ms = acted - place.deadline;
  if (ms <= BOUNDARY_TOLERANCE_MS) return null;
  let plan: PlannedWait | undefined;
  for (const w of waits)
    if (w.intent === intent.id && w.at <= acted && (!plan || w.at >= plan.at)) plan = w;
  if (plan === undefined) return null;
  const plannedMs = plan.at + plan.sleepMs - place.deadline;
  if (plannedMs <= BOUNDARY_TOLERANCE_MS) return null;
  // A sleep that fits in the place's window was planned as the protocol asks: planned after the
  // place was made, it ran past the deadline only because the client heard its answer late.
  if (plan.sleepMs <= place.deadline - place.madeAt + BOUNDARY_TOLERANCE_MS) return null;
  return { ms, plannedMs };
}
