import type { AdversaryHistory, Execution, Intent, LockState } from "../history.ts";
import { canRelease } from "./excuses.ts";

/**
 * The hold a re-entry adds to, as a lock hash: a Lock's (or FairLock's, a multi-lock part's), a
 * read-write lock's writer, or — for a read re-entry (`reader` given) — that owner's read session.
 */
function lockView(e: Execution, reader?: string): LockState | null {
  if (reader !== undefined) {
    if (e.state.kind !== "read-write-lock") return null;
    const session = e.state.readers[reader];
    return session === undefined
      ? { kind: "lock", owner: null, fence: 0, count: 0, reserved: false, expiresAt: null }
      : {
          kind: "lock",
          owner: reader,
          fence: session.fence,
          count: session.count,
          reserved: false,
          expiresAt: session.expiresAt,
        };
  }
  if (e.state.kind === "lock") return e.state;
  if (e.state.kind === "read-write-lock") return e.state.writer;
  return null;
}

/**
 * A re-entry whose call ended in doubt and applied adds one to a hold its owner already has.
 * That extra count harms no one as long as it never outlives the owner's hold: no release of the
 * owner's took the count down while the extra stayed (the lock would then stay held past the
 * owner's last release), and the hold ended by its lease, which only its owner renewed. Renewals
 * of the owner's own hold are not a use of the extra count: they keep the hold the owner knows.
 * Only when the owner's hold was told before the re-entry began: a hold told by a call still
 * running then may be this very grant (its reply the one the re-entry lost).
 * (Seen in the gate: a write re-entry in doubt on a read-write lock, the holder's own
 * `extend(14)` shortened the lease, the hold ran out, the cleanup found nothing left to undo.)
 */
export function reentryEndedWithItsHold(
  history: AdversaryHistory,
  runs: readonly Execution[],
  reentry: Intent,
  grant: Execution,
): boolean {
  const toldBefore = history.intents.some(
    (i) =>
      i.id !== reentry.id &&
      i.owner === reentry.owner &&
      i.resource === reentry.resource &&
      i.outcome === "ok" &&
      (i.kind === "acquire" || i.kind === "tryAcquire") &&
      i.endedAt !== null &&
      i.endedAt <= reentry.startedAt,
  );
  if (!toldBefore) return false;
  // A read re-entry adds to its owner's read session (seen in the gate, as the write side was).
  const reader = /acquire-read/.test(grant.script) ? reentry.owner : undefined;
  const held = lockView(grant, reader);
  if (held === null || held.owner === null || held.expiresAt === null) return false;
  let { count, expiresAt } = held;
  for (const e of runs) {
    if (e.seq <= grant.seq) continue;
    // The lease was over before this run was sent (as in `expiredUntouched`).
    if (expiresAt <= e.sentAt) return true;
    const s = lockView(e, reader);
    if (s === null) return false;
    if (s.owner !== held.owner || s.fence !== held.fence)
      // Gone at this run: by its lease only if the run cannot release and the lease was over.
      return !canRelease(history, e, held.owner) && expiresAt <= e.serverMs;
    if (s.count < count || s.expiresAt === null) return false;
    count = s.count;
    expiresAt = s.expiresAt;
  }
  const end = history.executions.at(-1)?.doneAt ?? -Infinity;
  return expiresAt <= end;
}
