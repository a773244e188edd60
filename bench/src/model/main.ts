/**
 * The hand-off model: the Lock's scripts and waiters as a discrete-event simulation, driven by the
 * real wait strategy, without CPU noise. Used to design the strategy; `pnpm --filter
 * @edgelock/bench model` prints efficiency and requests per section for the main scenarios.
 */
import { justInTimeStrategy, type WaitStrategy } from "@edgelock/core";
import { measure } from "../run/metrics.ts";
import { exponential, seededRandom } from "../run/random.ts";
import { EventClock } from "./clock.ts";
import { ModelServer } from "./server.ts";
import { ModelWorker, type ModelParams, type ModelWorld } from "./worker.ts";

export interface ModelRun {
  readonly workers: number;
  readonly rttMs: number;
  readonly jitterMs?: number;
  readonly irregular?: boolean;
  readonly push: boolean;
  readonly sections?: number;
  readonly noiseMs?: number;
  readonly claimMs?: number;
  readonly seed?: number;
  /** Mean critical section, ms. @default 10 */
  readonly csMs?: number;
  /** The wait strategy under test. @default justInTimeStrategy() */
  readonly strategy?: WaitStrategy;
  readonly peek?: ModelParams["peek"];
  /** A release leaves the lock to the first of the queue's first K waiters to poll (`ModelServer`). @default 1 */
  readonly grantFirstOf?: number;
}

export function runModel(run: ModelRun) {
  const clock = new EventClock();
  const random = seededRandom(run.seed ?? 7);
  const workers: ModelWorker[] = [];
  const claimMs = run.claimMs ?? 2_000;
  const server = new ModelServer(
    clock,
    claimMs,
    (owner, fence, claim) => workers[owner]!.deliver(fence, claim),
    run.grantFirstOf,
  );
  const jitter = run.jitterMs ?? 0;
  const noise = run.noiseMs ?? 1;
  const world: ModelWorld = {
    clock,
    server,
    sections: [],
    requests: 0,
    // Processing and scheduling delay per hop: exponential, as on a loaded machine (heavy tail).
    oneWay: () => (run.rttMs + random() * jitter) / 2 + exponential(random, noise),
    params: {
      rttMs: run.rttMs,
      jitterMs: jitter,
      noiseMs: noise,
      csMs: run.irregular ? () => exponential(random, run.csMs ?? 10) : () => run.csMs ?? 10,
      sections: run.sections ?? 20,
      push: run.push,
      claimMs,
      strategy: run.strategy ?? justInTimeStrategy(),
      ...(run.peek ? { peek: run.peek } : {}),
    },
  };
  for (let i = 0; i < run.workers; i++) workers.push(new ModelWorker(i, world));
  for (const w of workers) w.start();
  clock.run();
  const metrics = measure(
    [{ sections: world.sections, failedAcquires: 0, failedReleases: 0, leasesLost: 0 }],
    run.rttMs + jitter / 2,
    run.workers,
  );
  return { metrics, requestsPerCs: world.requests / world.sections.length };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const push of [true, false]) {
    for (const [label, r] of [
      ["N=8 R=20", { workers: 8, rttMs: 20 }],
      ["N=8 R=20 irregular", { workers: 8, rttMs: 20, irregular: true }],
      ["N=8 R=20 jitter 10", { workers: 8, rttMs: 20, jitterMs: 10 }],
      ["N=8 R=0", { workers: 8, rttMs: 0 }],
      ["N=2 R=20", { workers: 2, rttMs: 20 }],
      ["N=32 R=20", { workers: 32, rttMs: 20, sections: 5 }],
    ] as const) {
      const { metrics: m, requestsPerCs } = runModel({ ...r, push });
      console.log(
        `${push ? "push   " : "polling"} ${label.padEnd(20)} eff ${m.efficiency.toFixed(3)} req/CS ${requestsPerCs.toFixed(2)} gap50 ${m.gapP50.toFixed(1)} viol ${m.violations}`,
      );
    }
  }
}
