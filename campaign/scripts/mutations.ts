import { startStack } from "@edgelock/testkit";
import { ALL_MUTATIONS } from "../src/adversary/mutations/index.ts";
import { formatDetections, measureMutations, warmUp } from "../src/adversary/mutations/measure.ts";
import { installClockSkew } from "../src/world/clock-skew.ts";

// `pnpm --filter @edgelock/campaign mutations [name…]`: how often the checker reports each
// mutation (EDGELOCK_MUTATION_RUNS, default 20, EDGELOCK_MUTATION_PARALLEL at a time, default 16),
// and with EDGELOCK_MUTATION_CONTROL=1 the same worlds on the unmutated core.
const only = process.argv.slice(2);
const runs = Number(process.env["EDGELOCK_MUTATION_RUNS"] ?? 20);
const parallel = Number(process.env["EDGELOCK_MUTATION_PARALLEL"] ?? 16);
const control = process.env["EDGELOCK_MUTATION_CONTROL"] === "1";
const seed = Number(process.env["EDGELOCK_CAMPAIGN_SEED"] ?? 1);
const uninstall = installClockSkew();
const stack = await startStack({ restProcess: true });
try {
  await warmUp(stack);
  const chosen = ALL_MUTATIONS.filter((m) => only.length === 0 || only.includes(m.name));
  const rows = await measureMutations(stack, chosen, {
    runs,
    parallel,
    seed,
    control,
    dumpDir: "/tmp",
    backend: process.env["EDGELOCK_MUTATION_BACKEND"] === "rest" ? "rest" : "tcp",
  });
  console.log(formatDetections(rows));
  for (const row of rows)
    if (row.missed.length > 0)
      console.log(`${row.mutation}: missed seeds ${row.missed.join(", ")}`);
} finally {
  await stack.close();
  uninstall();
}
process.exit(0);
