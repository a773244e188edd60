import type { Fault } from "./fault.ts";

const SKEW_MS = 10_000;

/** Moves some workers' wall clocks by ±10 s (or back to true time). The core must not notice. */
export const clockSkewFault: Fault = {
  kind: "clock-skew",
  weight: 1,
  async inject({ world, rng, recorder }) {
    const moved = world.workers.filter(() => rng.chance(0.5));
    for (const worker of moved) worker.skew.ms = rng.pick([-SKEW_MS, 0, SKEW_MS]);
    const record = recorder.fault(
      "clock-skew",
      moved.map((w) => `${w.id} ${w.skew.ms > 0 ? "+" : ""}${w.skew.ms} ms`).join(", ") ||
        "none moved",
    );
    record.endSeq = recorder.next();
    return Promise.resolve();
  },
};
