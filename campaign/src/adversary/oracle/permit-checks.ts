import type { AdversaryHistory, Execution, ResourceState } from "../history.ts";
import type { GrantLedger } from "./grant-ledger.ts";
import { BOUNDARY_TOLERANCE_MS, type AdversaryViolation } from "./violation.ts";

type PesState = Extract<ResourceState, { kind: "permit-expirable-semaphore" }>;

const RELEASING = /\/(release|abandon)/;
const CLAIMING = /\/acquire/;

/**
 * Replays one permit-expirable semaphore's runs into `ledger`. A permit is a member of the
 * permits zset under its id, which is also its waiter id. It counts as granted when its own
 * acquire (a run whose subject is that id) answers "granted" with it live: a permit handed to a queued waiter by
 * someone else's run is the waiter's only once it claims it (as a Lock's reserved grant). A
 * claimed permit that leaves the zset before its lease ran out, by a release or abandon, is
 * released by that run's call; one that ran out was not released by anyone.
 *
 * No permit is created: a run that adds a permit (a grant, a hand-off) must leave no more live
 * permits than the total (`permits-created`); only a lowered total may leave more.
 */
export function permitRuns(runs: readonly Execution[], ledger: GrantLedger): AdversaryViolation[] {
  const out: AdversaryViolation[] = [];
  const claimed = new Set<string>();
  let prev: PesState | null = null;
  for (const e of runs) {
    const after = e.state as PesState;
    const liveBefore = live(prev, e.sentAt);
    const liveAfter = live(after, e.doneAt);
    let granted = 0;
    let released = 0;
    for (const id of claimed) {
      // Still listed (its lease ran out this millisecond, not pruned yet): a renewal may still
      // find it live at the server; it ends when a run removes it.
      if (liveAfter.has(id) || after.permits[id] !== undefined) continue;
      claimed.delete(id);
      // A release or abandon names its permit (the waiter id): it removes that one only.
      const own = e.subject === undefined || e.subject === id;
      if (own && RELEASING.test(e.script) && releasedHere(prev?.permits[id], e)) released += 1;
    }
    // Claimed by its own acquire when that run answered "granted": a copy refused unapplied (late,
    // tombstoned) that finds its waiter's reserved permit live claimed nothing.
    const answeredGranted = Array.isArray(e.reply) && Number(e.reply[0]) === 1;
    if (
      CLAIMING.test(e.script) &&
      answeredGranted &&
      e.subject !== undefined &&
      liveAfter.has(e.subject)
    ) {
      if (!claimed.has(e.subject)) {
        claimed.add(e.subject);
        granted += 1;
      }
    }
    const added = [...liveAfter].filter((id) => !liveBefore.has(id));
    if (added.length > 0 && liveAfter.size > after.total)
      out.push({
        class: "permits-created",
        resource: e.resource,
        seq: e.seq,
        detail: `${e.script} added ${added.length} permit(s): ${liveAfter.size} live of ${after.total}`,
      });
    ledger.add(e, granted, released);
    prev = after;
  }
  return out;
}

/**
 * Whether a releasing run removed a permit (expiring at `expiry`) rather than found it run out:
 * surely run out when it expired before the run was sent, surely live when it expires after the
 * run (with the boundary tolerance); in between, either outcome is accepted, as the script saw it.
 */
function releasedHere(expiry: number | undefined, e: Execution): boolean {
  if (expiry === undefined) return false;
  // The script said it released the permit (present before): it found it live, whatever the
  // real-time send says of a lease ending the same millisecond (the script ran after the send).
  if (Array.isArray(e.reply) && Number(e.reply[0]) === 1) return true;
  if (expiry <= e.sentAt) return false;
  if (expiry > e.doneAt + BOUNDARY_TOLERANCE_MS) return true;
  return Array.isArray(e.reply) && Number(e.reply[0]) === 1;
}

/** Ids of the permits whose lease has not run out at real time `at`. */
function live(state: PesState | null, at: number): Set<string> {
  const ids = new Set<string>();
  if (state === null) return ids;
  for (const [id, expiry] of Object.entries(state.permits)) if (expiry > at) ids.add(id);
  return ids;
}

/** A permit release told "ok" gave back its permit once; one that failed for sure gave back none. */
export function checkPermitReleases(
  history: AdversaryHistory,
  ledger: GrantLedger,
): AdversaryViolation[] {
  const out: AdversaryViolation[] = [];
  for (const i of history.intents) {
    if (i.kind !== "permit-release") continue;
    const back = ledger.releasesOf(i.id);
    const ok = i.outcome === "ok" ? back === 1 : back === 0 || i.outcome === "OUTCOME_UNKNOWN";
    if (!ok)
      out.push({
        class: "release-mismatch",
        resource: i.resource,
        intent: i.id,
        detail: `permit release ended ${i.outcome}; ${back} permit(s) went back`,
      });
  }
  return out;
}
