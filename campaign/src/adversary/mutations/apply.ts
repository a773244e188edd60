import type { Backend } from "@edgelock/core";
import { testSeams } from "../../../../packages/core/src/test-seams.ts";
import type { Mutation } from "./mutation.ts";
import { substitution, weakenedBackend } from "./weakened-backend.ts";

/** What a run needs to put one mutation in its world. */
export interface AppliedMutation {
  /** Wraps each client's backend (inside the scheduler): the weakened script goes instead. */
  readonly weaken?: (backend: Backend) => Backend;
  /** Weakened script bodies to load before the run, as the shipped ones are. */
  readonly scripts: readonly string[];
  /** Undoes a seam (a no-op for a Lua mutation). */
  restore(): void;
}

/**
 * Puts `mutation` in place. A seam is process-wide while set: runs of one seam mutation may
 * share the process, but not with runs that must not have it (the test runs seams one at a time).
 */
export function applyMutation(mutation: Mutation): AppliedMutation {
  const w = mutation.apply;
  if (w.kind === "lua") {
    const s = substitution(w);
    return {
      weaken: (backend) => weakenedBackend(backend, s),
      scripts: [s.weakened.source],
      restore: () => undefined,
    };
  }
  testSeams[w.seam] = true;
  return { scripts: [], restore: () => delete testSeams[w.seam] };
}
