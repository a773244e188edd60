import { runCampaign } from "./src/campaign.ts";
import { latePushFault } from "./src/faults/push.ts";
import { fairLockActivity, lockActivity } from "./src/workload/primitives/index.ts";
const f = latePushFault({ share: 1, delayMs: (r) => r.int(0, 300), cutChance: 0, cutOffChance: 1, cutOffMs: (r) => r.int(300, 800) });
for (let i = 0; i < 3; i++) {
  const run = await runCampaign({ seconds: 8, seed: 20_240_607, workers: 6, faults: [f], activities: [lockActivity, fairLockActivity] });
  const v = run.result.violations;
  console.log(v.length, v.map((x) => `[${x.rule}] ${x.message}`).slice(0, 5));
}
process.exit(0);
