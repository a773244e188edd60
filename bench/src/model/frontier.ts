/**
 * `pnpm --filter @edgelock/bench model:frontier`: how far polling alone can go on issue 14's
 * workload without push (N = 12, exponential sections of mean 8 ms, R = 25 ms), in the model.
 * The default strategy beside variants that aim the head's poll later or earlier (ms) and the
 * waiters behind it later or earlier (in mean holds), at a near-ideal machine (0.2 ms of delay
 * per hop) and at one like the bench's (1.5 ms, where push reaches what it reaches in the bench).
 * Each is a wrapper of the real strategy: only the public `WaitStrategy` seam is used. The last
 * rows try more polls per section, a design the library does not have: the head's overlapping
 * read-only polls (`peek`, see `ModelParams`), alone or with the waiters behind aimed later; and
 * a release that grants no one but leaves the lock to the first of the first K waiters to poll
 * (`grantFirstOf`, see `ModelServer`), so that K waiters' polls share the wait for it.
 */
import { justInTimeStrategy, type WaitStrategy } from "@edgelock/core";
import { runModel } from "./main.ts";

interface Variant {
  readonly label: string;
  /** Added to the head's sleep, ms. */
  readonly headMs?: number;
  /** Added to the sleep of a waiter behind the head, in mean holds. */
  readonly behindHolds?: number;
  /** The head's overlapping read-only polls, this many ms apart. */
  readonly peekEveryMs?: number;
  /**
   * A release leaves the lock to the first of the queue's first K waiters to poll; each of them
   * aims as the head does, 8 ms earlier per place behind it (the best of -8 / -4 / 0 ms tried).
   */
  readonly grantFirstOf?: number;
}

const VARIANTS: readonly Variant[] = [
  { label: "default" },
  { label: "head 4 ms earlier", headMs: -4 },
  { label: "head 4 ms later", headMs: 4 },
  { label: "head 8 ms later", headMs: 8 },
  { label: "behind 0.25 hold earlier", behindHolds: -0.25 },
  { label: "behind 0.25 hold later", behindHolds: 0.25 },
  { label: "behind 0.5 hold later", behindHolds: 0.5 },
  { label: "behind 0.75 hold later", behindHolds: 0.75 },
  { label: "head peeks every 10 ms", peekEveryMs: 10 },
  { label: "head peeks every 14 ms", peekEveryMs: 14 },
  { label: "head peeks every 18 ms", peekEveryMs: 18 },
  { label: "peeks 14 ms, behind 0.75 later", peekEveryMs: 14, behindHolds: 0.75 },
  { label: "peeks 18 ms, behind 0.75 later", peekEveryMs: 18, behindHolds: 0.75 },
  { label: "first of 2", grantFirstOf: 2 },
  { label: "first of 2, behind 1 later", grantFirstOf: 2, behindHolds: 1 },
  { label: "first of 3", grantFirstOf: 3 },
  { label: "first of 3, behind 1 later", grantFirstOf: 3, behindHolds: 1 },
  { label: "first of 3, behind 2 later", grantFirstOf: 3, behindHolds: 2 },
];

const FIRST_OF_APART_MS = -8;

function variant(v: Variant): WaitStrategy {
  const base = justInTimeStrategy();
  return {
    name: v.label,
    maxDelayMs: base.maxDelayMs,
    nextDelay(h) {
      const d = base.nextDelay(h);
      if (h.pushed || h.meanHoldMs <= 0) return d;
      if (h.position === 1) return Math.max(0, d + (v.headMs ?? 0));
      if (h.position <= (v.grantFirstOf ?? 1)) {
        const asHead = base.nextDelay({ ...h, position: 1 });
        return Math.max(0, asHead + FIRST_OF_APART_MS * (h.position - 1));
      }
      if (h.position > 1) return Math.max(0, d + (v.behindHolds ?? 0) * h.meanHoldMs);
      return d;
    },
  };
}

const SEEDS = [1, 2, 3, 4, 5, 6];

for (const noiseMs of [0.2, 1.5]) {
  console.log(`\n${noiseMs} ms of delay per hop (mean of ${SEEDS.length} seeds)`);
  for (const push of [true, false]) {
    const rows = push ? VARIANTS.slice(0, 1) : VARIANTS;
    for (const v of rows) {
      let efficiency = 0;
      let requests = 0;
      for (const seed of SEEDS) {
        const r = runModel({
          workers: 12,
          rttMs: 25,
          csMs: 8,
          irregular: true,
          push,
          noiseMs,
          seed,
          sections: 20,
          strategy: variant(v),
          ...(v.peekEveryMs === undefined ? {} : { peek: { periodMs: v.peekEveryMs, max: 30 } }),
          ...(v.grantFirstOf === undefined ? {} : { grantFirstOf: v.grantFirstOf }),
        });
        efficiency += r.metrics.efficiency / SEEDS.length;
        requests += r.requestsPerCs / SEEDS.length;
      }
      const label = `${push ? "push" : "polling"}, ${v.label}`;
      console.log(`  ${label.padEnd(42)} ${efficiency.toFixed(2)} @ ${requests.toFixed(2)}`);
    }
  }
}
