import type { AdversaryHistory, Execution, ResourceState } from "../history.ts";
import type { AdversaryViolation } from "./violation.ts";

/**
 * The runs behind one violation, a line each, for a report that must stand on its own: the CI
 * machine keeps no history file, so a rare failure there is judged from its log alone. Shows the
 * last `count` runs on the violation's resource up to its run (or its intent's last run), times in
 * ms from the first shown, and for a hold the client's belief and its samples among them.
 */
export function evidenceLines(
  history: AdversaryHistory,
  v: AdversaryViolation,
  count = 8,
): string[] {
  const onResource = history.executions.filter((e) => e.resource === v.resource);
  const upTo =
    v.seq ?? Math.max(-1, ...onResource.filter((e) => e.intent === v.intent).map((e) => e.seq));
  const shown = onResource.filter((e) => e.seq <= upTo).slice(-count);
  if (shown.length === 0) return [];
  const t0 = shown[0]!.sentAt;
  const ms = (t: number) => `${Math.round(t - t0)}`;
  const lines = shown.map((e) => `      #${e.seq} ${runLine(history, e, ms)}`);
  const belief = v.holdId === undefined ? undefined : history.beliefs[v.holdId];
  if (belief) {
    const end = (t: number | null) => (t === null ? "-" : ms(t));
    lines.push(
      `      hold ${belief.holdId}: ${belief.owner} fence ${belief.fence}, told ${ms(belief.toldAt)}, released ${end(belief.releasedAt)}, aborted ${end(belief.abortedAt)}${belief.keepAlive ? ", kept alive" : ""}`,
    );
    const from = shown[0]!.seq;
    const samples = history.samples
      .filter((s) => s.holdId === belief.holdId && s.seq >= from && s.seq <= upTo)
      .slice(-4)
      .map((s) => `#${s.seq} at ${ms(s.at)} until ${ms(s.deadline)}`);
    if (samples.length > 0) lines.push(`      its samples: ${samples.join("; ")}`);
  }
  return lines;
}

function runLine(history: AdversaryHistory, e: Execution, ms: (t: number) => string): string {
  const owner = e.intent === null ? "-" : history.intents[e.intent]!.owner;
  const reply = Array.isArray(e.reply) ? `[${e.reply.slice(0, 4).join(",")}…]` : String(e.reply);
  return (
    `${e.script} ${e.copy} intent ${e.intent ?? "-"} (${owner}) sent ${ms(e.sentAt)} done ${ms(e.doneAt)} server ${ms(e.serverMs)}` +
    ` → ${e.error ?? reply}; then ${stateLine(e.state, ms)}`
  );
}

function stateLine(state: ResourceState, ms: (t: number) => string): string {
  switch (state.kind) {
    case "lock":
      return state.owner === null
        ? "free"
        : `${state.owner} fence ${state.fence} ×${state.count}${state.reserved ? " reserved" : ""} until ${state.expiresAt === null ? "∞" : ms(state.expiresAt)}`;
    case "read-write-lock": {
      const readers = Object.entries(state.readers).map(
        ([o, r]) => `${o} ×${r.count} until ${ms(r.expiresAt)}`,
      );
      return `writer ${stateLine(state.writer, ms)}, readers [${readers.join(", ")}]`;
    }
    case "permit-expirable-semaphore":
      return `permits [${Object.entries(state.permits)
        .map(([p, t]) => `${p} until ${ms(t)}`)
        .join(", ")}]`;
    default:
      return JSON.stringify(state);
  }
}
