import type { AdversaryHistory, Belief, Execution, Intent } from "../history.ts";
import { serverHoldAt } from "./hold-state.ts";
import { leaseLostToEviction, overlapAfterEviction } from "./eviction-excuses.ts";
import { leaseLostToRollback, overlapAfterRollback } from "./rollback-checks.ts";
import {
  BOUNDARY_TOLERANCE_MS,
  type AdversaryViolation,
  type AdversaryViolationClass,
} from "./violation.ts";

/**
 * Honest leases and mutual exclusion, as the clients acted on them. After every run, each live
 * hold's local deadline was sampled: whenever a client believes it holds (its deadline is ahead),
 * the server must hold exactly that hold (a lock's owner and fence, a reader's session, a permit
 * id), until at least that deadline. Two holds believed on one lock at once are an overlap,
 * unless both are read sessions; permits are counted, not excluded.
 */
export function checkLeases(
  history: AdversaryHistory,
  byResource: ReadonlyMap<string, readonly Execution[]>,
): AdversaryViolation[] {
  const beliefs = history.beliefs;
  const intents = history.intents;
  const out: AdversaryViolation[] = [];
  const reported = new Set<string>();
  const believedAt = new Map<number, Belief[]>();
  for (const s of history.samples) {
    const belief = beliefs[s.holdId]!;
    if (s.deadline <= s.at + BOUNDARY_TOLERANCE_MS) continue;
    if (belief.releasedAt !== null && belief.releasedAt <= s.at) continue;
    const list = believedAt.get(s.seq) ?? [];
    list.push(belief);
    believedAt.set(s.seq, list);
    const runs = byResource.get(belief.resource) ?? [];
    const server = serverHoldAt(runs, s.seq, s.at, belief);
    const lie = s.deadline - server.end;
    if (lie <= BOUNDARY_TOLERANCE_MS) continue;
    if (leaseLostToRollback(history, runs, belief, s.seq)) continue;
    if (leaseLostToEviction(history, runs, belief, s.seq)) continue;
    const setter = leaseSetter(runs, s.seq, belief, intents);
    const cls =
      belief.resumed && !confirmedSince(runs, s.seq, belief)
        ? "dishonest-resume"
        : causeOf(setter, belief, history, s);
    const key = `${cls}:${belief.holdId}`;
    if (reported.has(key)) continue;
    reported.add(key);
    const what = server.holds
      ? `the server's lease ends ${Math.round(lie)} ms earlier`
      : `the server has ${server.instead}`;
    out.push({
      class: cls,
      resource: belief.resource,
      holdId: belief.holdId,
      seq: s.seq,
      detail: `hold ${belief.holdId}${belief.resumed ? " (resumed)" : ""} believed for ${Math.round(s.deadline - s.at)} ms more; ${what}${setter ? `; its lease last set by run #${setter.seq} (${setter.copy} copy of ${setter.script}, intent ${setter.intent})` : ""}`,
    });
  }
  const excused = (older: Belief, newer: Belief) => {
    const runs = byResource.get(older.resource) ?? [];
    return (
      overlapAfterRollback(history, runs, older, newer) ||
      overlapAfterEviction(history, runs, older, newer)
    );
  };
  for (const [seq, list] of believedAt) out.push(...overlaps(seq, list, reported, excused));
  return out;
}

/** The last run that set this hold's lease at the server (a grant or a renewal of it). */
function leaseSetter(
  runs: readonly Execution[],
  seq: number,
  belief: Belief,
  intents: readonly Intent[],
): Execution | undefined {
  for (let i = runs.length - 1; i >= 0; i--) {
    const e = runs[i]!;
    if (e.seq > seq || e.intent === null || !/extend|acquire/.test(e.script)) continue;
    // Someone else's busy poll (a permit's renewals and claims name it by id).
    if ((e.subject ?? intents[e.intent]!.owner) !== belief.owner) continue;
    if (serverHoldAt(runs, e.seq, e.doneAt, belief).holds) return e;
  }
  return undefined;
}

/**
 * Why the server's lease is shorter than the client believes: the holder's own renewal, not yet
 * answered, that shortened it; a copy of a renewal that ran after its caller had its answer (a
 * stale renewal); a renewal by another object renewing the same lease across a hand-over (the
 * first invocation's keeper, a resumed copy); or anything else.
 */
function causeOf(
  setter: Execution | undefined,
  belief: Belief,
  history: AdversaryHistory,
  sample: { seq: number; at: number },
): AdversaryViolationClass {
  if (!setter || setter.intent === null) return "dishonest-lease";
  const intent = history.intents[setter.intent]!;
  const renewer = intent.holdId === null ? undefined : history.beliefs[intent.holdId];
  if (renewer && renewer.holdId !== belief.holdId && renewer.resumed !== belief.resumed)
    return "renewal-race";
  const running = intent.endedAt === null || intent.endedAt >= sample.at;
  if (!/extend/.test(setter.script)) return "dishonest-lease";
  if (!setter.seen) return running ? "unresolved-renewal" : "stale-renewal";
  if (setter.seq === sample.seq || running) return "unresolved-renewal";
  return "dishonest-lease";
}

function overlaps(
  seq: number,
  list: readonly Belief[],
  reported: Set<string>,
  excused: (older: Belief, newer: Belief) => boolean,
): AdversaryViolation[] {
  const out: AdversaryViolation[] = [];
  for (const a of list)
    for (const b of list) {
      if (a.holdId >= b.holdId || a.resource !== b.resource) continue;
      if (a.owner === b.owner && a.fence === b.fence) continue; // nested holds of one owner
      if (a.mode === "permit" || b.mode === "permit") continue; // permits: see checkCapacity
      if (a.mode === "read" && b.mode === "read") continue; // readers share
      const key = `overlap:${a.holdId}:${b.holdId}`;
      if (reported.has(key)) continue;
      if (excused(a, b)) continue; // across a rollback or an eviction, as documented
      reported.add(key);
      out.push({
        class: "overlap",
        resource: a.resource,
        holdId: b.holdId,
        olderHoldId: a.holdId,
        seq,
        detail: `holds ${a.holdId} (fence ${a.fence}) and ${b.holdId} (fence ${b.fence}) believed at once`,
      });
    }
  return out;
}

/** Some renewal of this hold applied at the server after it was resumed (and by `seq`). */
function confirmedSince(runs: readonly Execution[], seq: number, belief: Belief): boolean {
  return runs.some(
    (e) =>
      e.seq < seq &&
      e.seen &&
      e.sentAt >= belief.toldAt &&
      /extend/.test(e.script) &&
      Array.isArray(e.reply) &&
      Number(e.reply[0]) === 1 &&
      serverHoldAt(runs, e.seq, e.doneAt, belief).holds,
  );
}
