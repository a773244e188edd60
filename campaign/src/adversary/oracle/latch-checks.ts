import type { AdversaryHistory, Execution, Intent, ResourceState } from "../history.ts";
import type { AdversaryViolation } from "./violation.ts";

type LatchState = Extract<ResourceState, { kind: "count-down-latch" }>;

/** What one latch's runs did, read off the count before and after each. */
export interface LatchReplay {
  /** Count-downs applied, per intent. */
  readonly counted: Map<number, number>;
  /** Sets applied, per intent. */
  readonly sets: Map<number, number>;
  /** Rounds whose count reached zero after their set. */
  readonly opened: Set<number>;
  readonly violations: AdversaryViolation[];
}

/**
 * Replays one latch in execution order. A round starts when a `trySetCount` of that round applies
 * (0 → n). Every count-down applied from then on must be one of that round's calls (a late copy
 * from an earlier round would open this one early), and the round opens when the count reaches 0.
 */
export function replayLatch(intents: readonly Intent[], runs: readonly Execution[]): LatchReplay {
  const replay: LatchReplay = {
    counted: new Map(),
    sets: new Map(),
    opened: new Set(),
    violations: [],
  };
  let prev = 0;
  let round: number | null = null;
  for (const e of runs) {
    const now = (e.state as LatchState).count;
    const intent = e.intent === null ? undefined : intents[e.intent];
    if (now > prev && prev === 0 && /try-set-count/.test(e.script)) {
      round = intent?.round ?? null;
      if (intent) replay.sets.set(intent.id, (replay.sets.get(intent.id) ?? 0) + 1);
    } else if (now < prev && /count-down/.test(e.script)) {
      if (intent) replay.counted.set(intent.id, (replay.counted.get(intent.id) ?? 0) + 1);
      if (intent?.round !== round)
        replay.violations.push({
          class: "latch-early",
          resource: e.resource,
          seq: e.seq,
          ...(intent ? { intent: intent.id } : {}),
          detail: `run #${e.seq} (${e.copy} copy) counted round ${round} down for ${intent ? `a call of round ${intent.round}` : "no call"}`,
        });
      if (now === 0 && round !== null) replay.opened.add(round);
    } else if (now !== prev)
      replay.violations.push({
        class: "latch-early",
        resource: e.resource,
        seq: e.seq,
        detail: `${e.script} moved the count ${prev} → ${now}`,
      });
    prev = now;
  }
  return replay;
}

/**
 * Each count-down intent applied exactly once when told so, never when it failed for sure, at most
 * once when its outcome is unknown; each trySetCount as told; and no `await` told the latch open
 * before its round's count reached zero.
 */
export function checkLatches(
  history: AdversaryHistory,
  byResource: ReadonlyMap<string, readonly Execution[]>,
): AdversaryViolation[] {
  const out: AdversaryViolation[] = [];
  for (const [resource, runs] of byResource) {
    if (runs[0]?.state.kind !== "count-down-latch") continue;
    const replay = replayLatch(history.intents, runs);
    out.push(...replay.violations);
    for (const i of history.intents) {
      if (i.resource !== resource) continue;
      const base = { resource, intent: i.id };
      if (i.kind === "latch-count-down") {
        const n = replay.counted.get(i.id) ?? 0;
        const ok =
          i.outcome === "ok" ? n === 1 : i.outcome === "OUTCOME_UNKNOWN" ? n <= 1 : n === 0;
        if (!ok)
          out.push({
            ...base,
            class: "count-mismatch",
            detail: `countDown ended ${i.outcome}; applied ${n}×`,
          });
      } else if (i.kind === "latch-set") {
        const n = replay.sets.get(i.id) ?? 0;
        const ok =
          i.outcome === "ok" ? n === 1 : i.outcome === "OUTCOME_UNKNOWN" ? n <= 1 : n === 0;
        if (!ok)
          out.push({
            ...base,
            class: "latch-set-mismatch",
            detail: `trySetCount ended ${i.outcome}; applied ${n}×`,
          });
      } else if (i.kind === "latch-await" && i.outcome === "ok") {
        const opened = runs.some(
          (e) =>
            e.doneAt <= (i.endedAt ?? Infinity) &&
            (e.state as LatchState).count === 0 &&
            e.intent !== null &&
            history.intents[e.intent]?.round === i.round &&
            /count-down/.test(e.script),
        );
        if (!opened)
          out.push({
            ...base,
            class: "latch-early",
            detail: `await of round ${i.round} told open before the round's count reached 0`,
          });
      }
    }
  }
  return out;
}
