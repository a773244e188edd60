import { startStack, type Stack } from "@edgelock/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MUTATIONS, PENDING_MUTATIONS } from "../src/adversary/mutations/index.ts";
import {
  formatDetections,
  measureMutation,
  type Detection,
} from "../src/adversary/mutations/measure.ts";
import { installClockSkew } from "../src/world/clock-skew.ts";

// "A checker is trusted only after it catches a bug" (issue 13): each mutation weakens one rule
// of the protocol on one kind of operation (or re-creates a finding), and the generic oracle,
// which knows nothing of mutations, must reject at least 19 of 20 bounded runs of it. A mutation
// it cannot see is a gap in the oracle, not a mutation to drop. The figures print as a table;
// `pnpm --filter @edgelock/campaign mutations` measures them outside vitest, and with
// EDGELOCK_MUTATION_CONTROL=1 the same worlds on the unmutated core. Mutations the checker does
// not yet see in 19 of 20 runs are `pending` (each with its measured rate and the reason found):
// measured by that script, listed here, not asserted — gaps to close, not passes.

const RUNS = 20;
const NEEDED = 19;
/**
 * 20 runs of every mutation take about 8 minutes on a 2-core machine, beyond what `pnpm test`
 * may add, so they run on demand: `EDGELOCK_MUTATIONS=1 pnpm exec vitest run --project campaign
 * test/mutations.test.ts` (the figures of the last full run are in campaign/README.md).
 */
const ON_DEMAND = process.env["EDGELOCK_MUTATIONS"] !== "1";
/** Worlds at once on the shared stack: more starve a loaded 2-core machine into timeouts only. */
const PARALLEL = Number(process.env["EDGELOCK_MUTATION_PARALLEL"] ?? 2);
const SEED = Number(process.env["EDGELOCK_CAMPAIGN_SEED"] ?? 1);

let stack: Stack;
let uninstallSkew: () => void;
const rows: Detection[] = [];

beforeAll(async () => {
  if (ON_DEMAND) return;
  uninstallSkew = installClockSkew();
  stack = await startStack();
});

afterAll(async () => {
  if (PENDING_MUTATIONS.length > 0)
    console.log(
      `pending (not asserted):\n${PENDING_MUTATIONS.map((m) => `  ${m.name}: ${m.pending}`).join("\n")}`,
    );
  if (rows.length > 0)
    console.log(
      `mutation → runs caught / ${RUNS}, violation kinds (runs)\n${formatDetections(rows)}`,
    );
  await stack?.close();
  uninstallSkew?.();
});

describe.skipIf(ON_DEMAND)(
  "the adversarial oracle sees every mutation (EDGELOCK_MUTATIONS=1: 8 min)",
  () => {
    for (const mutation of MUTATIONS) {
      const what = `${mutation.name} (${mutation.operation}: ${mutation.rule}${mutation.finding ? `, finding ${mutation.finding}` : ""})`;
      it(what, { timeout: 170_000 }, async () => {
        const row = await measureMutation(stack, mutation, {
          runs: RUNS,
          parallel: PARALLEL,
          seed: SEED,
          dumpDir: "/tmp",
        });
        rows.push(row);
        expect(
          row.caught,
          `${mutation.name}: caught in ${row.caught}/${RUNS}; missed seeds ${row.missed.join(", ")}`,
        ).toBeGreaterThanOrEqual(NEEDED);
      });
    }
  },
);
