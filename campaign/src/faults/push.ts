import type { Random } from "../random.ts";
import { pause } from "../workload/pause.ts";
import type { Fault } from "./fault.ts";

/** How a late-push episode bends the workers' streams. */
export interface LatePushPlan {
  /** The share of workers slowed in each episode. */
  readonly share: number;
  /** How late a slowed worker's messages come, ms, drawn once per worker and episode. */
  readonly delayMs: (rng: Random) => number;
  /** The chance that a slowed worker's stream is cut, its next message lost. */
  readonly cutChance: number;
  /**
   * The chance that a slowed worker is cut off from Redis as each message arrives, for
   * `cutOffMs` (its claims fail: it holds only what the grant's own time allows).
   */
  readonly cutOffChance: number;
  readonly cutOffMs: (rng: Random) => number;
}

/**
 * Half the workers, 50 ms to 3.2 s late: on time as far as a hand-off can tell, around the claim
 * window's end (2 s: the waiter's own poll comes about then) and well past it (a grant whose
 * message comes that late has lapsed).
 */
export const DEFAULT_LATE_PUSH: LatePushPlan = {
  share: 0.5,
  delayMs: (rng) => rng.pick([50, 300, 1_000, 1_800, 3_000]) + rng.int(0, 200),
  cutChance: 0.3,
  cutOffChance: 0.3,
  cutOffMs: (rng) => rng.int(300, 1_500),
};

/**
 * Some workers' push streams go slow for an episode: every message arrives late, now and then a
 * stream is cut with a message lost, and now and then a worker is cut off from Redis as a message
 * arrives. The core must never enter on a lapsed grant nor count a grant from its message's
 * arrival (with its claim failing, it would hold on after the grant lapsed), and a lost grant
 * must cost only a poll.
 */
export function latePushFault(plan: LatePushPlan = DEFAULT_LATE_PUSH, weight = 2): Fault {
  return {
    kind: "late-push",
    weight,
    async inject({ world, rng, recorder, episodeMs }) {
      const { push } = recorder.history;
      const before = push.delayed + push.lost;
      const slowed = world.workers
        .filter(() => rng.chance(plan.share))
        .map((worker) => ({
          worker,
          delayMs: plan.delayMs(rng),
          cut: rng.chance(plan.cutChance),
          cutOffMs: rng.chance(plan.cutOffChance) ? plan.cutOffMs(rng) : 0,
        }));
      for (const { worker, delayMs, cut, cutOffMs } of slowed)
        Object.assign(worker.push, { delayMs, cutNext: cut, cutOffMs });
      const record = recorder.fault(
        "late-push",
        slowed
          .map(
            (s) =>
              `${s.worker.id} +${s.delayMs} ms${s.cut ? " cut" : ""}` +
              (s.cutOffMs > 0 ? ` then cut off ${s.cutOffMs} ms` : ""),
          )
          .join(", ") || "none slowed",
      );
      await pause(episodeMs);
      // A cut-off already begun runs its course.
      for (const { worker } of slowed)
        Object.assign(worker.push, { delayMs: 0, cutNext: false, cutOffMs: 0 });
      record.injected = push.delayed + push.lost - before;
      record.endSeq = recorder.next();
    },
  };
}
