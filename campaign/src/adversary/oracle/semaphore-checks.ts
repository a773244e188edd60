import type { AdversaryHistory, Execution, Intent, ResourceState } from "../history.ts";
import type { GrantLedger } from "./grant-ledger.ts";
import type { AdversaryViolation } from "./violation.ts";

type SemState = Extract<ResourceState, { kind: "semaphore" }>;

/**
 * Semaphore runs in execution order: a run that lowers available + reserved took permits for its
 * intent, one that raises it gave them back (a direct hand-off to a waiter moves permits from
 * available to reserved and changes neither; the waiter's claim takes them). Never above the total.
 */
export function semaphoreRuns(
  history: AdversaryHistory,
  runs: readonly Execution[],
  ledger: GrantLedger,
): AdversaryViolation[] {
  const out: AdversaryViolation[] = [];
  const first = runs[0];
  if (!first) return out;
  const total = history.totals[first.resource] ?? 0;
  let prev = total;
  for (const e of runs) {
    const s = e.state as SemState;
    const now = s.available + s.reserved;
    if (now < prev) ledger.add(e, prev - now, 0);
    if (now > prev) ledger.add(e, 0, now - prev);
    if (now > s.total)
      out.push({
        class: "permits-created",
        resource: e.resource,
        seq: e.seq,
        detail: `${now} permits free of ${s.total} after ${e.script}`,
      });
    prev = now;
  }
  return out;
}

/**
 * A hold's permits go back exactly once, over every release call made for it (a release that
 * failed is called again, from a later invocation too, as one operation): each call gave back
 * nothing or all of its permits — nothing when it failed for sure, all when it was told "ok"
 * unless an earlier call for the hold (one whose outcome stayed unknown) already had — and once
 * any call was told "ok", exactly the hold's permits went back in all.
 */
export function checkSemaphoreReleases(
  history: AdversaryHistory,
  ledger: GrantLedger,
): AdversaryViolation[] {
  const out: AdversaryViolation[] = [];
  const byHold = new Map<number, { back: number; told: boolean; last: Intent }>();
  for (const i of history.intents) {
    if (i.kind !== "sem-release") continue;
    const back = ledger.releasesOf(i.id) - ledger.grantsOf(i.id);
    const ok =
      i.outcome === "ok" || i.outcome === "OUTCOME_UNKNOWN"
        ? back === 0 || back === i.permits
        : back === 0;
    if (!ok)
      out.push({
        class: "release-mismatch",
        resource: i.resource,
        intent: i.id,
        detail: `release of ${i.permits} ended ${i.outcome}; ${back} went back`,
      });
    const hold = byHold.get(i.holdId ?? -1 - i.id) ?? { back: 0, told: false, last: i };
    byHold.set(i.holdId ?? -1 - i.id, {
      back: hold.back + back,
      told: hold.told || i.outcome === "ok",
      last: i,
    });
  }
  for (const { back, told, last } of byHold.values())
    if (back > last.permits || (told && back !== last.permits))
      out.push({
        class: "release-mismatch",
        resource: last.resource,
        intent: last.id,
        detail: `the hold's ${last.permits} permit(s): ${back} went back over all its release calls${told ? ", one told ok" : ""}`,
      });
  return out;
}

/** Permits believed held at once never exceed the total. */
export function checkCapacity(history: AdversaryHistory): AdversaryViolation[] {
  const out: AdversaryViolation[] = [];
  for (const [resource, total] of Object.entries(history.totals)) {
    const intervals = history.beliefs
      .filter((b) => b.resource === resource)
      .map((b) => ({ from: b.toldAt, to: b.releasedAt ?? Infinity, permits: b.fence }));
    const points = intervals.flatMap((iv) => [
      { at: iv.from, d: iv.permits },
      { at: iv.to, d: -iv.permits },
    ]);
    points.sort((a, b) => a.at - b.at || a.d - b.d);
    let held = 0;
    for (const p of points) {
      held += p.d;
      if (held > total) {
        out.push({
          class: "over-capacity",
          resource,
          detail: `${held} permits believed held of ${total}`,
        });
        break;
      }
    }
  }
  return out;
}

/**
 * Permits of `resource` the oracle lets stay taken at quiescence: those an acquire in doubt took
 * when its cleanup never reached the server (`cleanupNeverReached`), and those of holds whose
 * release stayed in doubt past what a repeat can learn (no call told "ok", the last one ended
 * OUTCOME_UNKNOWN) or was known not to apply (`BACKEND`) with no call after it, and never applied
 * (no release call gave anything back). The protocol cannot
 * tell whether such a release applied, so it refuses every repeat rather than risk applying it
 * twice (docs/guarantees.md, Limits): the owner knows, and only `release(n)`/`addPermits` can
 * give them back.
 */
export function permitsInDoubt(
  history: AdversaryHistory,
  ledger: GrantLedger,
  resource: string,
): number {
  return (
    releasesInDoubt(history, ledger, resource) +
    permitsLeftByUnreachedCleanup(history, ledger, resource)
  );
}

function releasesInDoubt(history: AdversaryHistory, ledger: GrantLedger, resource: string): number {
  const byHold = new Map<number, Intent[]>();
  for (const i of history.intents)
    if (i.kind === "sem-release" && i.resource === resource && i.holdId !== null)
      byHold.set(i.holdId, [...(byHold.get(i.holdId) ?? []), i]);
  let stuck = 0;
  for (const calls of byHold.values()) {
    const back = calls.reduce((sum, i) => sum + ledger.releasesOf(i.id) - ledger.grantsOf(i.id), 0);
    const told = calls.some((i) => i.outcome === "ok");
    // Still held: the last call ended in doubt, or known not applied (`BACKEND`: settled), and
    // the owner called no more (the workload gives up after a few calls; the permits then stay
    // taken, as they should, until someone releases them).
    const last = calls.at(-1)!.outcome;
    if (!told && back === 0 && (last === "OUTCOME_UNKNOWN" || last === "BACKEND"))
      stuck += calls[0]!.permits;
  }
  return stuck;
}

/**
 * Whether an acquire's background cleanup never reached the server while the operation's record
 * lived: it has abandon runs and each failed without a reply (a request that hung or dropped
 * before executing), or was handed to the world before the record expired and run there only
 * after (the world's delay; the abandon then finds no record, and nothing tells it what the
 * acquire took). The documented limit (docs/guarantees.md, Limits): an acquire left in doubt is
 * undone once, with the engine's retries; when that undo does not reach the server while the
 * record lives, an unleased Semaphore's permits stay taken. An abandon the client itself sent
 * after the record expired is not excused: the protocol sends it in time.
 */
export function cleanupNeverReached(history: AdversaryHistory, intent: Intent): boolean {
  const abandons = history.executions.filter(
    (e) => e.intent === intent.id && /\/abandon/.test(e.script),
  );
  return (
    abandons.length > 0 &&
    abandons.every(
      (e) => (e.error !== null && e.reply === null) || delayedPastRecord(history, intent, e),
    )
  );
}

/** `abandon` was handed over before its operation's record expired, and ran after. */
function delayedPastRecord(history: AdversaryHistory, intent: Intent, abandon: Execution): boolean {
  if (history.recordMarginMs === undefined || abandon.queuedAt === undefined) return false;
  const deadlines = history.executions
    .filter((e) => e.intent === intent.id && e.opId === abandon.opId && e.deadline !== undefined)
    .map((e) => e.deadline!);
  if (deadlines.length === 0) return false;
  const expiry = Math.max(...deadlines) + history.recordMarginMs;
  return abandon.queuedAt < expiry && abandon.serverMs > expiry;
}

/** Permits a Semaphore acquire in doubt took and its unreached cleanup left (see above). */
function permitsLeftByUnreachedCleanup(
  history: AdversaryHistory,
  ledger: GrantLedger,
  resource: string,
): number {
  let left = 0;
  for (const i of history.intents) {
    if (i.kind !== "sem-acquire" || i.resource !== resource || i.outcome !== "OUTCOME_UNKNOWN")
      continue;
    const net = ledger.grantsOf(i.id) - ledger.releasesOf(i.id);
    if (net > 0 && cleanupNeverReached(history, i)) left += net;
  }
  return left;
}
