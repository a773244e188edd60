import type { History, LeaseProbeRecord } from "../history/types.ts";
import { dataLossBetween } from "./excuses.ts";
import { violation, type Violation } from "./violation.ts";

/**
 * Whole milliseconds: Redis reports the remaining lease truncated and its clock ticks in whole
 * ms, and the two readings of the belief are a ms apart at most when nothing moved it.
 */
const ROUNDING_MS = 2;

/**
 * A holder never believes its lease lasts beyond the server's. A probe read the belief, asked the
 * server (which answered `serverMs` at some moment before the answer came), and read the belief
 * again. When the belief's deadline did not move meanwhile (no renewal of the holder's own was
 * sent or confirmed: a claim sent at once shortens the server's lease, and lowers the belief as
 * it is sent), it held at the moment the server answered: then more left than the server had is
 * a belief past the lease (a grant counted from its message's arrival, a lease counted from its
 * answer). Excused only when data was lost between the acquire and the probe: the lease went with
 * it, and no holder can know at once.
 */
export function checkLeaseHonesty(history: History): Violation[] {
  const out: Violation[] = [];
  for (const probe of history.leaseProbes) {
    const section = history.sections[probe.section];
    if (!section || !beliefHeld(probe)) continue;
    const overMs = probe.believedAfterMs - probe.serverMs;
    if (overMs <= ROUNDING_MS) continue;
    if (dataLossBetween(history, section.acquireSeq ?? section.enterSeq, probe.seq)) continue;
    out.push(
      violation(
        "dishonest-lease",
        `${section.worker}: ${section.primitive} section #${section.id} (${section.resources.join(", ")}) ` +
          `believed its lease had ${Math.round(probe.believedAfterMs)} ms left when the server ` +
          `said ${probe.serverMs} ms: ${Math.round(overMs)} ms too long`,
      ),
    );
  }
  return out;
}

/** The belief's deadline stayed where it was while the server was asked. */
export function beliefHeld(probe: LeaseProbeRecord): boolean {
  return Math.abs(probe.believedMs - probe.elapsedMs - probe.believedAfterMs) <= ROUNDING_MS;
}
