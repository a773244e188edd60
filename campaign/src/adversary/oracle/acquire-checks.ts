import type { AdversaryHistory, Execution, Intent } from "../history.ts";
import { expiredUntouchedAnyKind } from "./kind-excuses.ts";
import type { GrantLedger } from "./grant-ledger.ts";
import { reentryEndedWithItsHold } from "./reentry-excuse.ts";
import { grantsErasedByRollback } from "./rollback-checks.ts";
import { cleanupNeverReached } from "./semaphore-checks.ts";
import { BOUNDARY_TOLERANCE_MS, type AdversaryViolation } from "./violation.ts";

const ACQUIRING = new Set(["tryAcquire", "acquire", "reenter", "sem-acquire", "permit-acquire"]);

/** What one acquire applies when it is granted: its permits, one hold per name of a multi-lock, else one. */
function unitOf(intent: Intent): number {
  if (intent.kind === "sem-acquire") return intent.permits;
  return intent.resources?.length ?? 1;
}

/**
 * Counts intents, not requests: each acquire call must have applied exactly what its caller was
 * told (`unit` holds or permits when acquired, nothing otherwise). A grant for a caller told "not
 * acquired" is excused only when the call's own cleanup undid it before any other call touched
 * the resource; a grant for a call that failed must be undone by its cleanup, unless nothing could
 * undo it and nobody used it: it ran out by its own lease untouched (`expiredUntouched`).
 */
export function checkAcquires(
  intents: readonly Intent[],
  ledger: GrantLedger,
  byResource: ReadonlyMap<string, readonly Execution[]>,
  history?: AdversaryHistory,
): AdversaryViolation[] {
  const out: AdversaryViolation[] = [];
  for (const intent of intents) {
    if (!ACQUIRING.has(intent.kind)) continue;
    const unit = unitOf(intent);
    // A grant a rollback erased is undone by it (docs: the data set went back), record and all.
    const erased = history
      ? grantsErasedByRollback(history, byResource.get(intent.resource) ?? [], intent)
      : 0;
    const granted = ledger.grantsOf(intent.id);
    const net = granted - erased - ledger.releasesOf(intent.id);
    const base = { resource: intent.resource, intent: intent.id };
    const first = ledger.firstGrant.get(intent.id);
    const where = first ? ` (run #${first.seq}, ${first.copy} copy of ${first.script})` : "";
    if (intent.outcome === "ok") {
      if (granted - erased > unit)
        out.push({
          ...base,
          class: "double-grant",
          detail: `${intent.kind} applied ${granted}× its ${unit}${where}`,
        });
      else if (granted < unit && !(history && ranOutBeforeProbe(history, intent)))
        out.push({
          ...base,
          class: "told-not-applied",
          detail: `${intent.kind} told acquired, applied ${granted}/${unit}`,
        });
      continue;
    }
    if (granted === 0) continue;
    const told = intent.outcome === "none" || intent.outcome === "ACQUIRE_TIMEOUT";
    if (told) {
      const undo = ledger.lastRelease.get(intent.id);
      if (net <= 0 && undo && first && !touchedBetween(byResource, intent, first.seq, undo.seq))
        continue;
      out.push({
        ...base,
        class: "phantom-grant",
        detail: `${intent.kind} told "${intent.outcome}" but ${granted} applied${where}${net > 0 ? ", never undone" : ", undone too late"}`,
      });
    } else if (net > 0) {
      const runs = byResource.get(first?.resource ?? intent.resource) ?? [];
      if (
        history &&
        first &&
        granted - erased === net &&
        expiredUntouchedAnyKind(history, runs, first)
      )
        continue;
      if (
        history &&
        first &&
        intent.kind === "reenter" &&
        granted - erased === net &&
        reentryEndedWithItsHold(history, runs, intent, first)
      )
        continue;
      // An unleased Semaphore's permits, when the cleanup never reached the server: a documented
      // limit (final-state then allows exactly those permits missing).
      if (history && intent.kind === "sem-acquire" && cleanupNeverReached(history, intent))
        continue;
      out.push({
        ...base,
        class: "orphan-hold",
        detail: `${intent.kind} ended ${intent.outcome}; ${net} applied and never undone by its cleanup${where}`,
      });
    }
  }
  return out;
}

function touchedBetween(
  byResource: ReadonlyMap<string, readonly Execution[]>,
  intent: Intent,
  from: number,
  to: number,
): boolean {
  return (intent.resources ?? [intent.resource]).some((resource) =>
    (byResource.get(resource) ?? []).some(
      (e) => e.seq > from && e.seq < to && e.intent !== intent.id,
    ),
  );
}

/**
 * Where a granting reply carries the lease it gave (ms): the Lock's shape (status, fence, count,
 * remaining lease, …), the MultiLock's (status, shortest lease among its names, slots…), and the
 * PermitExpirableSemaphore's (status, fence, lease, …).
 */
function leaseSlotOf(script: string): number | undefined {
  if (/^(lock|fair-lock)\/acquire$|^read-write-lock\/acquire-(write|read)$/.test(script)) return 3;
  if (script === "multi-lock/acquire") return 1;
  if (script === "permit-semaphore/acquire") return 2;
  return undefined;
}

/**
 * A grant (or a re-entry) whose lease had run out at the server before the probe after its run could read it: a
 * run stalled on a loaded machine (seen: a lock acquire whose reply took 200 ms, its 150 ms lease
 * gone when the state was read, the caller told only by its settle). The server expiry is the
 * time the script ran (every protocol reply ends with the server time) plus the lease its reply
 * gave; if that lies before the probe's server time, no logged state could show the grant. Only
 * for a granting reply of the intent's own run, of a script whose reply carries the lease (a
 * MultiLock's too: seen, a 150 ms grant on two names probed 158 ms after it ran; and a
 * PermitExpirableSemaphore's: seen in the CI gate at 57992d1, a 150 ms permit probed 233 ms after
 * it ran, its reply lost and the caller told by its settle; and a reader's: seen over TCP at
 * c209a8c, a 150 ms read session probed 253 ms after it ran, the caller told by its settle).
 */
function ranOutBeforeProbe(history: AdversaryHistory, intent: Intent): boolean {
  return history.executions.some((e) => {
    const slot = leaseSlotOf(e.script);
    if (e.intent !== intent.id || slot === undefined) return false;
    // 1 granted, 2 re-entered: a re-entry's reply carries the lease it left the hold too (seen
    // in the gate: a re-entry's reply held back 240 ms, its 150 ms lease gone when probed).
    if (!Array.isArray(e.reply) || ![1, 2].includes(Number(e.reply[0]))) return false;
    // The reply's server time on the real clock, as the probe's `serverMs` already is.
    const ranAt = Number(e.reply.at(-1)) - (e.clockOffsetMs ?? 0);
    const leaseMs = Number(e.reply[slot]);
    if (!Number.isFinite(ranAt) || !Number.isFinite(leaseMs)) return false;
    return ranAt + leaseMs <= e.serverMs + BOUNDARY_TOLERANCE_MS;
  });
}
