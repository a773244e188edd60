import type { AdversaryHistory, Belief, DataFault, Execution } from "../history.ts";
import type { GrantLedger } from "./grant-ledger.ts";
import { serverHoldAt } from "./hold-state.ts";
import type { AdversaryViolation } from "./violation.ts";

/**
 * What a rollback to an older snapshot excuses, as docs/guarantees.md ("Rollback detection")
 * promises it, and no more. The data set went back: a hold granted or renewed since the snapshot
 * is gone or shorter at the server, and its holder learns it at its next renewal or its local
 * deadline; a client that remembers a grant epoch the rollback lost detects the rollback at its
 * next granting call (refused, `rolled-back`, its holds lost) and the quarantine keeps every new
 * holder out until the old ones passed their deadlines; a client that remembers none (one made
 * per call, or one never shown a lost grant) detects nothing, and its grant may overlap a holder
 * from before the rollback for that holder's lease.
 */

function rollbacks(history: AdversaryHistory): DataFault[] {
  return (history.dataFaults ?? []).filter((f) => f.kind === "rollback");
}

/**
 * A lease sample that the rollback explains: the belief was told before a rollback that ran by
 * this sample, and no renewal of the hold has applied (and been answered) since that rollback.
 */
export function leaseLostToRollback(
  history: AdversaryHistory,
  runs: readonly Execution[],
  belief: Belief,
  seq: number,
): boolean {
  return rollbacks(history).some(
    (r) =>
      r.seq <= seq &&
      belief.toldAt < r.at &&
      !runs.some(
        (e) =>
          e.seq > r.seq &&
          e.seq <= seq &&
          e.seen &&
          /extend/.test(e.script) &&
          serverHoldAt(runs, e.seq, e.doneAt, belief).holds,
      ),
  );
}

/** The grant epoch a granting script's reply carries: the one it left (-1: none). */
function epochLeft(e: Execution): number {
  if (!/acquire/.test(e.script) || !Array.isArray(e.reply) || e.reply.length < 4) return -1;
  return Number(e.reply[e.reply.length - 3]);
}

/**
 * The highest grant epoch the client that sent `run` had been shown before sending it: what it
 * can remember (none for a client made for this call).
 */
function epochShown(executions: readonly Execution[], run: Execution): number {
  let shown = -1;
  if (run.client === undefined) return shown;
  for (const e of executions) {
    if (e.seq >= run.seq) break;
    if (e.client === run.client && e.seen && e.doneAt <= run.sentAt)
      shown = Math.max(shown, epochLeft(e));
  }
  return shown;
}

/**
 * An overlap of `older` (told before a rollback) and `newer` (granted after it) that the docs
 * allow: the run that granted `newer` left an epoch above every one its client had been shown,
 * so that client could not know a grant was lost (a client that could is refused instead). A
 * holder told of the loss first (its hold lost) is not believed any more, so it overlaps nothing.
 */
export function overlapAfterRollback(
  history: AdversaryHistory,
  runs: readonly Execution[],
  older: Belief,
  newer: Belief,
): boolean {
  const grant = runs.find(
    (e) =>
      e.state.kind === "lock" && e.state.owner === newer.owner && e.state.fence === newer.fence,
  );
  if (grant === undefined) return false;
  const across = rollbacks(history).some((r) => older.toldAt < r.at && r.seq < grant.seq);
  return across && epochShown(history.executions, grant) < epochLeft(grant);
}

/**
 * Rollback detection, as promised: grant epochs only grow on a data set that loses nothing, so a
 * grant that leaves an epoch no higher than one its client had already been shown was made on a
 * data set that went back, by a client that could tell: it must have been refused (the client
 * told `rolled-back`, the quarantine started), not granted. Runs without the quarantine carry no
 * epochs (-1) and are not judged; a client made per call was shown none.
 */
export function checkRollbackDetected(
  history: AdversaryHistory,
  ledger: GrantLedger,
): AdversaryViolation[] {
  const out: AdversaryViolation[] = [];
  if (history.quarantineMs === undefined) return out;
  for (const grant of ledger.granting) {
    const left = epochLeft(grant);
    if (left < 0) continue;
    const shown = epochShown(history.executions, grant);
    if (shown < left) continue;
    out.push({
      class: "rollback-undetected",
      resource: grant.resource,
      ...(grant.intent === null ? {} : { intent: grant.intent }),
      seq: grant.seq,
      detail: `granted at epoch ${left}, its client (#${grant.client}) had been shown epoch ${shown}: the data set went back and the grant was not refused`,
    });
  }
  return out;
}

/**
 * How many of `intent`'s grants a rollback erased: a rollback after one of its grants on
 * `resource` whose restored state does not hold the owner's hold (the operation record went with
 * it, so a resend may grant again; a cleanup finds nothing to undo).
 */
export function grantsErasedByRollback(
  history: AdversaryHistory,
  runs: readonly Execution[],
  intent: { readonly id: number; readonly owner: string },
): number {
  let erased = 0;
  let granted = false;
  for (const e of runs) {
    if (e.intent === intent.id && e.state.kind === "lock" && e.state.owner === intent.owner)
      granted = true;
    if (!granted || e.script !== "world/rollback") continue;
    if (e.state.kind === "lock" && e.state.owner === intent.owner) continue;
    if (!rollbacks(history).some((r) => r.seq <= e.seq)) continue;
    erased++;
    granted = false;
  }
  return erased;
}
