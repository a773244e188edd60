import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCampaign } from "./campaign.ts";
import { seedFrom } from "./random.ts";

// `pnpm test:faults`: a longer campaign. EDGELOCK_CAMPAIGN_SECONDS (default 120),
// EDGELOCK_CAMPAIGN_SEED (default random), EDGELOCK_CAMPAIGN_WORKERS (default 12).

const env = process.env;
const seconds = Number(env["EDGELOCK_CAMPAIGN_SECONDS"] ?? "120");
if (!Number.isFinite(seconds) || seconds <= 0) throw new Error(`EDGELOCK_CAMPAIGN_SECONDS must be a positive number of seconds, got ${env["EDGELOCK_CAMPAIGN_SECONDS"]}`);
const workers = Number(env["EDGELOCK_CAMPAIGN_WORKERS"] ?? "12");
const seed = seedFrom(env);

const { history, result, report } = await runCampaign({ seconds, seed, workers, log: (line) => console.log(line) });
console.log(report);
if (result.violations.length > 0) {
  const file = join(tmpdir(), `edgelock-campaign-${seed}.json`);
  writeFileSync(file, JSON.stringify(history));
  console.log(`history written to ${file}`);
  process.exitCode = 1;
}
