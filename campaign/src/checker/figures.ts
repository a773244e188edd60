import type { History } from "../history/types.ts";
import { emptyPushCounts, type PushCounts } from "../world/push-faults.ts";
import type { Excuse } from "./excuses.ts";
import { beliefHeld } from "./lease-honesty.ts";

export interface Figures {
  readonly sections: number;
  readonly sectionsByPrimitive: Record<string, number>;
  readonly sectionEnds: Record<string, number>;
  readonly writes: { readonly accepted: number; readonly rejected: number };
  /** Per fault kind: episodes injected and requests they hit. */
  readonly faults: Record<string, { episodes: number; injected: number }>;
  readonly hits: Record<string, number>;
  /** Which scripts the failed requests ran. */
  readonly hitCommands: Record<string, number>;
  readonly surfacedBy: Record<string, number>;
  readonly dataLosses: number;
  readonly latchRounds: number;
  readonly countDowns: number;
  readonly holdCountChecks: number;
  /**
   * Leases probed right after the acquire (belief beside the server's lease), and how many of
   * them the checker could judge (the belief did not move while the server was asked).
   */
  readonly leaseProbes: { readonly taken: number; readonly judged: number };
  readonly excused: Record<Excuse, number>;
  readonly events: Record<string, number>;
  /** Push messages the workers' streams delivered, delivered late, and lost with a cut. */
  readonly push: PushCounts;
}

const tally = (keys: readonly string[]): Record<string, number> => {
  const out: Record<string, number> = {};
  for (const key of keys) out[key] = (out[key] ?? 0) + 1;
  return out;
};

export function figuresOf(history: History, excused: Record<Excuse, number>): Figures {
  const faults: Record<string, { episodes: number; injected: number }> = {};
  for (const f of history.faults) {
    const entry = (faults[f.kind] ??= { episodes: 0, injected: 0 });
    entry.episodes++;
    entry.injected += f.injected;
  }
  const accepted = history.writes.filter((w) => w.accepted).length;
  return {
    sections: history.sections.length,
    sectionsByPrimitive: tally(history.sections.map((s) => s.primitive)),
    sectionEnds: tally(history.sections.map((s) => s.end ?? "open")),
    writes: { accepted, rejected: history.writes.length - accepted },
    faults,
    hits: tally(history.hits.map((h) => h.kind)),
    hitCommands: tally(history.hits.map((h) => h.command)),
    surfacedBy: tally(history.hits.map((h) => (h.surfacedBy ?? "-").replace(/:.*/, ""))),
    dataLosses: history.dataLosses.length,
    latchRounds: history.latchRounds.length,
    countDowns: history.latchRounds.reduce((n, r) => n + r.calls.length, 0),
    holdCountChecks: history.holdCounts.length,
    leaseProbes: {
      taken: history.leaseProbes.length,
      judged: history.leaseProbes.filter(beliefHeld).length,
    },
    excused,
    events: { ...history.events },
    // A history recorded before streams were counted has none.
    push: { ...emptyPushCounts(), ...history.push },
  };
}
