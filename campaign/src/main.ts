import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCampaign } from "./campaign.ts";
import { seedFrom } from "./random.ts";

// `pnpm test:faults`: longer campaigns, with the restart quarantine off, then on.
//   EDGELOCK_CAMPAIGN_SECONDS     per campaign (default 120)
//   EDGELOCK_CAMPAIGN_SEED        default random (printed)
//   EDGELOCK_CAMPAIGN_WORKERS     default 12
//   EDGELOCK_CAMPAIGN_QUARANTINE  off | on | both (default both)

export const CAMPAIGN_QUARANTINE_MS = 3_000;

const env = process.env;
const seconds = Number(env["EDGELOCK_CAMPAIGN_SECONDS"] ?? "120");
if (!Number.isFinite(seconds) || seconds <= 0) {
  throw new Error(
    `EDGELOCK_CAMPAIGN_SECONDS must be a positive number of seconds, got ${env["EDGELOCK_CAMPAIGN_SECONDS"]}`,
  );
}
const workers = Number(env["EDGELOCK_CAMPAIGN_WORKERS"] ?? "12");
const quarantine = env["EDGELOCK_CAMPAIGN_QUARANTINE"] ?? "both";
if (!["off", "on", "both"].includes(quarantine))
  throw new Error(`EDGELOCK_CAMPAIGN_QUARANTINE must be off, on or both, got ${quarantine}`);
const seed = seedFrom(env);

let failed = false;
for (const mode of quarantine === "both" ? ["off", "on"] : [quarantine]) {
  const { history, result, report } = await runCampaign({
    seconds,
    seed,
    workers,
    ...(mode === "on" ? { quarantineMs: CAMPAIGN_QUARANTINE_MS } : {}),
    log: (line) => console.log(line),
  });
  console.log(`${report}\n`);
  if (result.violations.length > 0) {
    const file = join(tmpdir(), `edgelock-campaign-${seed}-quarantine-${mode}.json`);
    writeFileSync(file, JSON.stringify(history));
    console.log(`history written to ${file} (pnpm --filter @edgelock/campaign recheck ${file})`);
    failed = true;
  }
}
if (failed) process.exitCode = 1;
