import type { Execution, ReaderState, ResourceState } from "../history.ts";
import type { GrantLedger } from "./grant-ledger.ts";
import { lockTransitions, refusedUnapplied } from "./lock-transitions.ts";
import { BOUNDARY_TOLERANCE_MS } from "./violation.ts";

type RwState = Extract<ResourceState, { kind: "read-write-lock" }>;

const RELEASING = /\/(release|abandon|force-unlock)/;

/**
 * Grants and releases of one read-write lock, in execution order, into `ledger`: the writer's
 * hash is a Lock's (its transitions are the Lock's, direct grants to queued writers included);
 * each reader's session counts on its own: a higher count is a grant to the run's call, a lower
 * one (or a session gone before its lease ran out, by a releasing script) a release.
 */
export function readWriteTransitions(
  runs: readonly Execution[],
  ledger: GrantLedger,
  /** The owner of the call a run belongs to: a release ends only its owner's session. */
  ownerOf: (intent: number) => string | undefined = () => undefined,
): void {
  const writer = runs.map((e) => ({ ...e, state: (e.state as RwState).writer }));
  // One transition per run, in order; the ledger keeps the run itself (its state the whole lock's).
  lockTransitions(writer, ownerOf).forEach((t, i) => ledger.add(runs[i]!, t.granted, t.released));
  let prev: Readonly<Record<string, ReaderState>> = {};
  // Operations that released a read session already (a copy of one that runs again is a repeat).
  const releasedBy = new Set<string>();
  for (const e of runs) {
    const after = (e.state as RwState).readers;
    let granted = 0;
    let released = 0;
    for (const owner of new Set([...Object.keys(prev), ...Object.keys(after)])) {
      const b = prev[owner];
      // Found still there after the run (same fence), it had not ended when the run ran.
      const survived = b !== undefined && after[owner]?.fence === b.fence;
      // A repeat of a release that applied already, finding the session gone when its lease ran
      // out while the copy was in flight (sent before the expiry, the server's time after the run
      // past it), as lock-transitions.ts judges a Lock's: the lease explains it. Seen: a late copy
      // of a release in doubt sent 1 ms before the session's end, run 2 ms after it, answering
      // from its record.
      const repeatAtExpiry =
        b !== undefined &&
        !survived &&
        e.opId !== null &&
        releasedBy.has(e.opId) &&
        b.expiresAt <= e.serverMs + BOUNDARY_TOLERANCE_MS;
      const before = b && !repeatAtExpiry && (survived || b.expiresAt > e.sentAt) ? b : undefined;
      // The same session after the run counts whatever its expiry says when the run came back:
      // its count moved only by this run (as a Lock hold's, see lock-transitions.ts). Seen: a
      // re-entry's abandon gave its level back as the session ran out (server ms 097, lease end
      // 098, the reply back at 098): the count went 2 → 1, which must count as that release.
      const now =
        after[owner] && (survived || after[owner].expiresAt > e.doneAt) ? after[owner] : undefined;
      if (before && now && before.fence === now.fence) {
        if (now.count > before.count) granted += now.count - before.count;
        else if (RELEASING.test(e.script)) released += before.count - now.count;
        continue;
      }
      // A session still there after the run (ran out, not yet pruned) was not released by it; nor
      // one of another owner's (a script prunes sessions that ran out).
      const by = e.intent === null ? undefined : ownerOf(e.intent);
      const own = by === undefined || by === owner || /force/.test(e.script);
      if (before && !survived && own && RELEASING.test(e.script) && !refusedUnapplied(e))
        released += before.count;
      if (now) granted += now.count;
    }
    ledger.add(e, granted, released);
    if (released > 0 && e.opId !== null) releasedBy.add(e.opId);
    prev = after;
  }
}
