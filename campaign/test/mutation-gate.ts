import { startStack, type Stack } from "@edgelock/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Mutation } from "../src/adversary/mutations/index.ts";
import {
  formatDetections,
  measureMutations,
  warmUp,
  type Detection,
} from "../src/adversary/mutations/measure.ts";
import { installClockSkew } from "../src/world/clock-skew.ts";

// "A checker is trusted only after it catches a bug" (issue 13): each mutation weakens one rule
// of the protocol on one kind of operation (or re-creates a finding), and the generic oracle,
// which knows nothing of mutations, must reject at least 19 of 20 bounded runs of it. A mutation
// it cannot see is a gap in the oracle, not a mutation to drop.

export const RUNS = 20;
export const NEEDED = 19;
/** Worlds at once on the shared stack (they mostly wait on held-back copies, not compute). */
const PARALLEL = Number(process.env["EDGELOCK_MUTATION_PARALLEL"] ?? 8);
const SEED = Number(process.env["EDGELOCK_CAMPAIGN_SEED"] ?? 1);

/**
 * Measures `mutations` (20 runs each, on one stack, pooled: see `measureMutations`) before the
 * file's tests, then asserts each in its own test. Vitest runs each file in its own worker, so a
 * seam (process-wide) of one file never leaks into another's runs.
 */
export function mutationGate(title: string, mutations: readonly Mutation[]): void {
  let stack: Stack;
  let uninstallSkew: () => void;
  const rows = new Map<string, Detection>();

  beforeAll(async () => {
    uninstallSkew = installClockSkew();
    stack = await startStack();
    await warmUp(stack);
    const measured = await measureMutations(stack, mutations, {
      runs: RUNS,
      parallel: PARALLEL,
      seed: SEED,
      dumpDir: "/tmp",
    });
    for (const row of measured) rows.set(row.mutation, row);
    console.log(
      `${title}: mutation → runs caught / ${RUNS}, wall, violation kinds (runs)\n${formatDetections(measured)}`,
    );
  }, 600_000);

  afterAll(async () => {
    await stack?.close();
    uninstallSkew?.();
  });

  describe(title, () => {
    for (const mutation of mutations) {
      const what = `${mutation.name} (${mutation.operation}: ${mutation.rule}${mutation.finding ? `, finding ${mutation.finding}` : ""})`;
      it(what, () => {
        const row = rows.get(mutation.name)!;
        expect(
          row.caught,
          `${mutation.name}: caught in ${row.caught}/${RUNS}; missed seeds ${row.missed.join(", ")} (re-run one: pnpm --filter @edgelock/campaign mutations ${mutation.name})`,
        ).toBeGreaterThanOrEqual(NEEDED);
      });
    }
  });
}
