import type { AdversaryHistory } from "../history.ts";
import { isWellFormed, wireForm } from "../wire-form.ts";
import type { AdversaryViolation } from "./violation.ts";

/**
 * One key, one name: every Redis key the executions touched belongs to exactly one name the
 * clients meant. Keys are compared as Redis receives them (UTF-8: a lone surrogate arrives as
 * U+FFFD), resources as the clients built them; two resources arriving as one key are two
 * primitives sharing state, which every per-resource rule would miss (it replays each apart).
 */
export function checkOneKeyOneName(history: AdversaryHistory): AdversaryViolation[] {
  const firstSeq = new Map<string, Map<string, number>>();
  for (const e of history.executions) {
    const wire = wireForm(e.resource);
    const names = firstSeq.get(wire) ?? new Map<string, number>();
    if (!names.has(e.resource)) names.set(e.resource, e.seq);
    firstSeq.set(wire, names);
  }
  const out: AdversaryViolation[] = [];
  for (const [wire, names] of firstSeq) {
    if (names.size < 2) continue;
    const [, seq] = [...names].sort((a, b) => a[1] - b[1])[1]!;
    out.push({
      class: "key-shared",
      resource: wire,
      seq,
      detail: `${names.size} resources (${[...names.keys()].map((n) => JSON.stringify(n)).join(", ")}) reach Redis as one key`,
    });
  }
  return out;
}

/**
 * Names, prefixes and owner ids must be well-formed Unicode (docs: a lone surrogate would share
 * keys with U+FFFD): a call on a resource or owner that is not must end in the typed
 * `InvalidArgumentError`, and no script of it may run.
 */
export function checkIllFormedRefused(history: AdversaryHistory): AdversaryViolation[] {
  const out: AdversaryViolation[] = [];
  const ran = new Set(history.executions.map((e) => e.intent));
  for (const intent of history.intents) {
    const resources = [intent.resource, ...(intent.resources ?? [])];
    if (resources.every(isWellFormed) && isWellFormed(intent.owner)) continue;
    if (intent.outcome === "INVALID_ARGUMENT" && !ran.has(intent.id)) continue;
    out.push({
      class: "ill-formed-accepted",
      resource: intent.resource,
      intent: intent.id,
      detail: `a call on an ill-formed name or owner ended ${intent.outcome ?? "unanswered"}${ran.has(intent.id) ? " and ran scripts" : ""}, not INVALID_ARGUMENT`,
    });
  }
  return out;
}
