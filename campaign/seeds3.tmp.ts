import { runCampaign } from "./src/campaign.ts";
import { testSeams } from "../packages/core/src/test-seams.ts";
import { latePushFault } from "./src/faults/push.ts";
import { fairLockActivity, lockActivity } from "./src/workload/primitives/index.ts";

const [lo, hi] = process.argv[2]!.split("-").map(Number) as [number, number];
const late = latePushFault({ share: 1, delayMs: (rng) => rng.int(lo, hi), cutChance: 0, cutOffChance: 0, cutOffMs: () => 0 });
testSeams.pushedGrantFromArrival = process.argv[3] !== "honest";
for (const seed of [20240607, 1, 2, 3]) {
  const run = await runCampaign({ seconds: 8, seed, workers: 6, faults: [late], activities: [lockActivity, fairLockActivity], leaseProbeChance: 1 });
  const n = run.result.violations.filter((v) => v.rule === "dishonest-lease").length;
  console.log(`${process.argv[2]} ${process.argv[3] ?? "seam"} seed ${seed}: probes ${JSON.stringify(run.result.figures.leaseProbes)} late ${run.result.figures.push.delayed} dishonest ${n} all ${run.result.violations.length}`);
}
process.exit(0);
