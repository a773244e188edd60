import type { Intent } from "../history.ts";
import type { GrantLedger } from "./grant-ledger.ts";
import type { AdversaryViolation } from "./violation.ts";

/** Scripts that undo a call in doubt or decide it: they may run after the caller's answer. */
const CLEANUP = /\/(abandon|settle)/;

/**
 * An error is a final answer: `OutcomeUnknownError` surfaces only once no copy can apply any
 * more, and a settled or refused call applied nothing and never will. So no copy of a call
 * that ended in an error may grant or release anything after its caller was told (the run's
 * server-side start is after the intent ended); only its own cleanup may.
 */
export function checkAppliedAfterAnswer(
  intents: readonly Intent[],
  ledger: GrantLedger,
): AdversaryViolation[] {
  const out: AdversaryViolation[] = [];
  const reported = new Set<number>();
  for (const e of ledger.applying) {
    const intent = intents[e.intent!];
    if (!intent || reported.has(intent.id) || intent.endedAt === null) continue;
    if (intent.outcome === null || intent.outcome === "ok" || intent.outcome === "none") continue;
    if (CLEANUP.test(e.script) || e.sentAt <= intent.endedAt) continue;
    reported.add(intent.id);
    out.push({
      class: "applied-after-answer",
      resource: e.resource,
      intent: intent.id,
      seq: e.seq,
      detail: `${intent.kind} ended ${intent.outcome}; ${Math.round(e.sentAt - intent.endedAt)} ms later a ${e.copy} copy of ${e.script} applied (run #${e.seq})`,
    });
  }
  return out;
}
