import type { AdversaryHistory, Belief, Execution, Intent } from "../history.ts";
import { lockStateAt } from "./lock-transitions.ts";
import { BOUNDARY_TOLERANCE_MS, type AdversaryViolation } from "./violation.ts";

/**
 * Honest leases and mutual exclusion, as the clients acted on them. After every run, each live
 * hold's local deadline was sampled: whenever a client believes it holds (its deadline is ahead),
 * the server must hold exactly that owner and fence, until at least that deadline. Two holds
 * believed on one lock at once are an overlap.
 */
export function checkLeases(
  history: AdversaryHistory,
  byResource: ReadonlyMap<string, readonly Execution[]>,
): AdversaryViolation[] {
  const beliefs = history.beliefs;
  const intents = history.intents;
  const out: AdversaryViolation[] = [];
  const reported = new Set<string>();
  const believedAt = new Map<number, Belief[]>();
  for (const s of history.samples) {
    const belief = beliefs[s.holdId]!;
    if (s.deadline <= s.at + BOUNDARY_TOLERANCE_MS) continue;
    if (belief.releasedAt !== null && belief.releasedAt <= s.at) continue;
    const list = believedAt.get(s.seq) ?? [];
    list.push(belief);
    believedAt.set(s.seq, list);
    const runs = byResource.get(belief.resource) ?? [];
    const state = lockStateAt(runs, s.seq, s.at);
    const holds = state.owner === belief.owner && state.fence === belief.fence && !state.reserved;
    const serverEnd = holds ? (state.expiresAt ?? 0) : s.at;
    const lie = s.deadline - serverEnd;
    if (lie <= BOUNDARY_TOLERANCE_MS) continue;
    const cls =
      holds && inFlightShortening(runs, s.seq, belief, intents, s.at)
        ? "shorten-in-flight"
        : belief.resumed && !confirmedSince(runs, s.seq, belief)
          ? "dishonest-resume"
          : "dishonest-lease";
    const key = `${cls}:${belief.holdId}`;
    if (reported.has(key)) continue;
    reported.add(key);
    const server = holds
      ? `the server's lease ends ${Math.round(lie)} ms earlier`
      : state.owner === null
        ? "the server has it free"
        : `the server has it held by another hold (fence ${state.fence})`;
    out.push({
      class: cls,
      resource: belief.resource,
      holdId: belief.holdId,
      seq: s.seq,
      detail: `hold ${belief.holdId}${belief.resumed ? " (resumed)" : ""} believed for ${Math.round(s.deadline - s.at)} ms more; ${server}`,
    });
  }
  for (const [seq, list] of believedAt) out.push(...overlaps(seq, list, reported));
  return out;
}

function overlaps(
  seq: number,
  list: readonly Belief[],
  reported: Set<string>,
): AdversaryViolation[] {
  const out: AdversaryViolation[] = [];
  for (const a of list)
    for (const b of list) {
      if (a.holdId >= b.holdId || a.resource !== b.resource) continue;
      if (a.owner === b.owner && a.fence === b.fence) continue; // nested holds of one owner
      const key = `overlap:${a.holdId}:${b.holdId}`;
      if (reported.has(key)) continue;
      reported.add(key);
      out.push({
        class: "overlap",
        resource: a.resource,
        holdId: b.holdId,
        seq,
        detail: `holds ${a.holdId} (fence ${a.fence}) and ${b.holdId} (fence ${b.fence}) believed at once`,
      });
    }
  return out;
}

/**
 * The run that lowered this hold's lease is a renewal of the holder's own whose reply the client
 * has not had yet: the run just sampled (samples are taken before its reply is delivered), or a
 * renewal from an `extend` call still in progress.
 */
function inFlightShortening(
  runs: readonly Execution[],
  seq: number,
  belief: Belief,
  intents: readonly Intent[],
  at: number,
): boolean {
  const last = [...runs].reverse().find((e) => e.seq <= seq && /extend/.test(e.script));
  if (!last) return false;
  const ownHold =
    (last.state as { owner?: unknown }).owner === belief.owner &&
    (last.state as { fence?: unknown }).fence === belief.fence;
  if (last.seq === seq && ownHold) return true;
  if (last.intent === null) return false;
  const intent = intents[last.intent]!;
  return (
    intent.owner === belief.owner &&
    intent.fence === belief.fence &&
    /extend/.test(intent.kind) &&
    (intent.endedAt === null || intent.endedAt >= at)
  );
}

/** Some renewal of this hold applied at the server after it was resumed (and by `seq`). */
function confirmedSince(runs: readonly Execution[], seq: number, belief: Belief): boolean {
  return runs.some(
    (e) =>
      e.seq <= seq &&
      e.sentAt >= belief.toldAt &&
      /extend/.test(e.script) &&
      Array.isArray(e.reply) &&
      Number(e.reply[0]) === 1 &&
      (e.state as { owner?: unknown }).owner === belief.owner,
  );
}
