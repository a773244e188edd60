import type { AdversaryHistory, Execution, ResourceState } from "../history.ts";
import { expiredUntouched, PROBE_JITTER_MS, toldOfIt } from "./excuses.ts";

type RwState = Extract<ResourceState, { kind: "read-write-lock" }>;
type PesState = Extract<ResourceState, { kind: "permit-expirable-semaphore" }>;

/**
 * `expiredUntouched` (see excuses.ts) for every kind of leased grant: a lock hash's (the Lock's,
 * a FairLock's, a multi-lock's part, a writer's), a read session's, a permit's. The same narrow
 * shape: its call ended in an error with the grant's reply and settle lost, no client was told of
 * the hold, nothing renewed or released it, and it ended by its own lease.
 */
export function expiredUntouchedAnyKind(
  history: AdversaryHistory,
  runs: readonly Execution[],
  grant: Execution,
): boolean {
  switch (grant.state.kind) {
    case "lock":
      return expiredUntouched(history, runs, grant);
    case "read-write-lock": {
      const writer = (e: Execution) => ({ ...e, state: (e.state as RwState).writer });
      if (grant.state.writer.owner !== null && !grant.state.writer.reserved) {
        const owner = grant.state.writer.owner;
        const intent = grant.intent === null ? undefined : history.intents[grant.intent];
        if (intent?.owner === owner)
          return expiredUntouched(history, runs.map(writer), writer(grant));
      }
      const owner = grant.intent === null ? undefined : history.intents[grant.intent]?.owner;
      const session = owner === undefined ? undefined : grant.state.readers[owner];
      if (owner === undefined || session === undefined) return false;
      return leaseRanOut(history, runs, grant, owner, session.fence, (e) => {
        const r = (e.state as RwState).readers[owner];
        return r && r.fence === session.fence ? { count: r.count, expiresAt: r.expiresAt } : null;
      });
    }
    case "permit-expirable-semaphore": {
      const id = grant.subject;
      const expiry = id === undefined ? undefined : grant.state.permits[id];
      if (id === undefined || expiry === undefined) return false;
      return leaseRanOut(history, runs, grant, id, null, (e) => {
        const at = (e.state as PesState).permits[id];
        return at === undefined ? null : { count: 1, expiresAt: at };
      });
    }
    default:
      return false;
  }
}

/**
 * The hold `read` finds (owner `owner`, fence `fence` or any) after `grant` kept its count and
 * expiry until its lease ran out, and no client was told of it.
 */
function leaseRanOut(
  history: AdversaryHistory,
  runs: readonly Execution[],
  grant: Execution,
  owner: string,
  fence: number | null,
  read: (e: Execution) => { count: number; expiresAt: number } | null,
): boolean {
  const start = read(grant);
  if (start === null) return false;
  const told = toldOfIt(
    history,
    grant.resource,
    owner,
    fence,
    grant.sentAt,
    start.expiresAt,
    grant.intent,
  );
  if (told) return false;
  for (const e of runs) {
    if (e.seq <= grant.seq) continue;
    if (start.expiresAt <= e.sentAt) return true;
    const now = read(e);
    if (now === null) return start.expiresAt <= e.serverMs && !couldEnd(e, owner);
    if (now.count !== start.count) return false;
    if (Math.abs(now.expiresAt - start.expiresAt) > PROBE_JITTER_MS) return false;
  }
  const end = history.executions.at(-1)?.doneAt ?? -Infinity;
  return start.expiresAt <= end;
}

/**
 * Whether run `e` could have ended `owner`'s hold (a read session's owner, a permit's id): a
 * force-unlock could; a release or an abandon only of the hold it names (its first argument).
 */
function couldEnd(e: Execution, owner: string): boolean {
  if (/\/(force-unlock|forceUnlock)/.test(e.script)) return true;
  if (!/\/(release|abandon)/.test(e.script)) return false;
  return e.subject === undefined || e.subject === owner;
}
