import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCampaign } from "./campaign.ts";
import { runQuorumCampaign } from "./quorum/run.ts";
import { seedFrom } from "./random.ts";

// `pnpm test:faults`: longer campaigns, with the restart quarantine off, then on; then the quorum
// lock's campaign over 5 independent redis-servers (EDGELOCK_CAMPAIGN_KIND=all | single | quorum).
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

const kind = env["EDGELOCK_CAMPAIGN_KIND"] ?? "all";
if (!["all", "single", "quorum"].includes(kind))
  throw new Error(`EDGELOCK_CAMPAIGN_KIND must be all, single or quorum, got ${kind}`);

let failed = false;
const modes = kind === "quorum" ? [] : quarantine === "both" ? ["off", "on"] : [quarantine];
for (const mode of modes) {
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
if (kind !== "single") {
  const quorum = await runQuorumCampaign({ seconds, seed, log: (line) => console.log(line) });
  console.log(`${quorum.report}\n`);
  if (quorum.result.violations.length > 0) {
    const file = join(tmpdir(), `edgelock-campaign-${seed}-quorum.json`);
    writeFileSync(file, JSON.stringify({ ...quorum, report: undefined }));
    console.log(`history written to ${file}`);
    failed = true;
  }
}
if (failed) process.exitCode = 1;
