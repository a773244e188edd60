import { AsyncLocalStorage } from "node:async_hooks";
import type { Backend } from "@edgelock/core";
import { testSeams } from "../../../../packages/core/src/test-seams.ts";
import type { Mutation, SeamWeakening } from "./mutation.ts";
import { substitution, weakenedBackend } from "./weakened-backend.ts";

type Seam = SeamWeakening["seam"];

/** What a run needs to put one mutation in its world. */
export interface AppliedMutation {
  /** Wraps each client's backend (inside the scheduler): the weakened script goes instead. */
  readonly weaken?: (backend: Backend) => Backend;
  /** Weakened script bodies to load before the run, as the shipped ones are. */
  readonly scripts: readonly string[];
  /**
   * Runs one world with the mutation in place: a seam holds only inside `run`'s async context
   * (its clients' calls, keepers and background work), so worlds of other mutations, and the
   * controls, run beside it in the same process unweakened.
   */
  within<T>(run: () => Promise<T>): Promise<T>;
}

/** The seams set for the async context a run was started in. */
const runSeams = new AsyncLocalStorage<ReadonlySet<Seam>>();
let seamsRouted = false;

/**
 * Makes every seam of the core read the current run's set instead of a process-wide flag. The
 * core reads `testSeams.<seam>` at the one line each weakens, inside the call that line belongs
 * to, so the async context of that call says which world it is in.
 */
function routeSeams(): void {
  if (seamsRouted) return;
  seamsRouted = true;
  // Every seam the core has (a Record, so a new one is a compile error here until it is listed).
  const every: Record<keyof typeof testSeams, true> = {
    acceptShortRecordTtl: true,
    keeperIntervalFromFirstLease: true,
    concurrentRenewals: true,
    resumeTrustsExpiresAt: true,
    unknownBeforeDeadline: true,
    waiterIgnoresClaimWindow: true,
    acceptIllFormedNames: true,
    ignoreRollback: true,
    hideEvictionPolicy: true,
    pushedGrantFromArrival: true,
    renewFailuresUntold: true,
  };
  const seams = Object.keys(every) as Seam[];
  for (const seam of seams)
    Object.defineProperty(testSeams, seam, {
      get: () => runSeams.getStore()?.has(seam) ?? false,
      configurable: true,
      enumerable: true,
    });
}

/** Puts `mutation` in place for the runs `within` starts. */
export function applyMutation(mutation: Mutation): AppliedMutation {
  const w = mutation.apply;
  if (w.kind === "lua") {
    const s = substitution(w);
    return {
      weaken: (backend) => weakenedBackend(backend, s),
      scripts: [s.weakened.source],
      within: (run) => run(),
    };
  }
  routeSeams();
  const set: ReadonlySet<Seam> = new Set([w.seam]);
  return { scripts: [], within: (run) => runSeams.run(set, run) };
}
