import type { AdversaryHistory, Intent, IntentKind } from "./history.ts";

// "A request's deadline never lies beyond its caller's budget (waitMs, tryAcquire's single
// attempt, a renewal's local deadline); the campaign reports the worst overshoot of any public
// call" (issue 13). docs/protocol.md gives the budgets: an acquire, the time left of `waitMs` plus
// one request timeout; a renewal, until the hold's local deadline (a resumed hold's first renewal,
// the retry window: its local deadline is only what the carried data proves, ordered-renewal.ts);
// a release (and every other change), the retry window; each attempt capped at the retry window. A copy's deadline is
// `upper(first send) + budget`, so it passes the budget only by the client's error about the
// server clock (`clockErrorMs` at most before its first reading); a call returns past its budget
// only while it waits for a deadline to surely pass before `OutcomeUnknownError`.

/** The timings a run's clients used, that budgets are made of. */
export interface BudgetTimings {
  readonly requestTimeoutMs: number;
  readonly retryWindowMs: number;
}

/** The worst overshoot seen for one kind of public call. */
export interface KindOvershoot {
  /** Calls of this kind whose budget is known. */
  calls: number;
  /** Copies sent for them that carried a deadline. */
  copies: number;
  /** max(copy's deadline − the call's budget end), server ms against real ms (≤ 0: within). */
  worstDeadlineMs: number;
  /** max(the call's return − its budget end) (≤ 0: returned within its budget). */
  worstReturnMs: number;
}

export type Overshoots = Partial<Record<IntentKind, KindOvershoot>>;

/** The script a call of each kind sends (background work charged to it, as an abandon, is not its own request). */
const OWN_SCRIPT: Partial<Record<IntentKind, RegExp>> = {
  tryAcquire: /\/acquire/,
  acquire: /\/acquire/,
  reenter: /\/acquire/,
  "sem-acquire": /\/acquire/,
  "permit-acquire": /\/acquire/,
  extend: /\/extend/,
  "resume-extend": /\/extend/,
  "permit-extend": /\/extend/,
  "permit-resume-extend": /\/extend/,
  release: /\/release/,
  "resume-release": /\/release/,
  "sem-release": /\/release/,
  "permit-release": /\/release/,
  "latch-count-down": /\/count-down/,
  "latch-set": /\/try-set-count/,
  "add-permits": /\/(add-permits|change-permits)/,
};

const ACQUIRES = new Set<IntentKind>([
  "tryAcquire",
  "acquire",
  "reenter",
  "sem-acquire",
  "permit-acquire",
]);
const RENEWALS = new Set<IntentKind>(["extend", "permit-extend"]);

/**
 * Adds one run's worst overshoots into `into`, per kind of call. A copy counts against the call
 * that sent it: the intent's latest call started before the copy was handed over, and only
 * copies handed over before the intent returned (what runs after, as a keeper's renewals or an
 * abandon, is background work charged to the intent, not its caller's request).
 */
export function addOvershoots(
  into: Overshoots,
  history: AdversaryHistory,
  timings: BudgetTimings,
): void {
  const intents = new Map(history.intents.map((i) => [i.id, i]));
  for (const intent of history.intents) {
    if (OWN_SCRIPT[intent.kind] === undefined || intent.endedAt === null) continue;
    const row = (into[intent.kind] ??= {
      calls: 0,
      copies: 0,
      worstDeadlineMs: -Infinity,
      worstReturnMs: -Infinity,
    });
    row.calls += 1;
    const last = callStartAt(intent, intent.endedAt);
    row.worstReturnMs = Math.max(
      row.worstReturnMs,
      intent.endedAt - budgetEnd(intent, last, history, timings),
    );
  }
  const counted = new Set<string>();
  for (const e of history.executions) {
    if (e.intent === null || e.deadline === undefined) continue;
    const intent = intents.get(e.intent);
    if (intent?.endedAt == null || !OWN_SCRIPT[intent.kind]?.test(e.script)) continue;
    const handedOver = e.queuedAt ?? e.sentAt;
    if (handedOver > intent.endedAt) continue;
    // A multi-lock's run is logged once per lock: one copy.
    const copyKey = `${e.intent}:${e.opId}:${e.sentAt}:${e.script}`;
    if (counted.has(copyKey)) continue;
    counted.add(copyKey);
    const row = into[intent.kind]!;
    row.copies += 1;
    const end = budgetEnd(intent, callStartAt(intent, handedOver), history, timings);
    row.worstDeadlineMs = Math.max(row.worstDeadlineMs, e.deadline - end);
  }
}

/** The start of the intent's latest call begun by `at`. */
function callStartAt(intent: Intent, at: number): number {
  let start = intent.startedAt;
  for (const s of intent.callStarts ?? []) if (s <= at) start = Math.max(start, s);
  return start;
}

/** Real ms at which the budget of the call started at `start` ends. */
function budgetEnd(
  intent: Intent,
  start: number,
  history: AdversaryHistory,
  t: BudgetTimings,
): number {
  const window = start + t.retryWindowMs;
  if (ACQUIRES.has(intent.kind)) return start + (intent.waitMs ?? 0) + t.requestTimeoutMs;
  if (RENEWALS.has(intent.kind)) {
    const local = localDeadlineAt(history, intent.holdId, start);
    return local === undefined ? window : Math.min(local, window);
  }
  return window;
}

/** The hold's local deadline as last sampled before `at` (undefined: never sampled). */
function localDeadlineAt(
  history: AdversaryHistory,
  holdId: number | null,
  at: number,
): number | undefined {
  if (holdId === null) return undefined;
  let found: number | undefined;
  for (const s of history.samples) if (s.holdId === holdId && s.at <= at) found = s.deadline;
  return found;
}

/** One line per kind: calls, copies, worst deadline and return past the budget (ms). */
export function formatOvershoots(overshoots: Overshoots): string {
  const rows = Object.entries(overshoots).sort(([a], [b]) => a.localeCompare(b));
  const ms = (v: number) => (v === -Infinity ? "-" : `${Math.round(v)}`);
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(22) : c.padStart(16))).join("");
  return [
    line(["call", "calls", "copies", "deadline past", "return past"]),
    ...rows.map(([kind, r]) =>
      line([
        kind,
        String(r!.calls),
        String(r!.copies),
        ms(r!.worstDeadlineMs),
        ms(r!.worstReturnMs),
      ]),
    ),
  ].join("\n");
}
