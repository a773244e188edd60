import { CONFIGS, DATA_FAULT_CONFIGS, UNPROMISED_CONFIGS } from "./configs.ts";
import { formatAdversaryReport } from "./oracle/check.ts";
import { runAdversary } from "./run.ts";

// `pnpm --filter @edgelock/campaign adversary`: every config once, the data-fault ones
// (data-loss, eviction, clock-steps) included (or EDGELOCK_ADVERSARY_CONFIG, which also names
// the worlds of what is not promised: clock-steps-back),
// EDGELOCK_CAMPAIGN_SECONDS each (default 5), seed EDGELOCK_CAMPAIGN_SEED (default: random),
// backend EDGELOCK_ADVERSARY_BACKEND (rest | tcp). Failing histories go to the temp directory.
const seconds = Number(process.env["EDGELOCK_CAMPAIGN_SECONDS"] ?? 5);
const seed = Number(process.env["EDGELOCK_CAMPAIGN_SEED"] ?? Math.floor(Math.random() * 1e9));
const only = process.env["EDGELOCK_ADVERSARY_CONFIG"];
const backend = process.env["EDGELOCK_ADVERSARY_BACKEND"] === "tcp" ? "tcp" : "rest";
const runs = Number(process.env["EDGELOCK_ADVERSARY_RUNS"] ?? 1);

let failed = false;
const named = [...CONFIGS, ...DATA_FAULT_CONFIGS, ...UNPROMISED_CONFIGS];
for (const config of only === undefined
  ? [...CONFIGS, ...DATA_FAULT_CONFIGS]
  : named.filter((c) => c.name === only)) {
  for (let r = 0; r < runs; r++) {
    const started = Date.now();
    const run = await runAdversary({ config, seed: seed + r, seconds, backend, dumpDir: "/tmp" });
    console.log(formatAdversaryReport(run.history, run.result));
    console.log(
      `  (${((Date.now() - started) / 1000).toFixed(1)} s${run.file ? `, history: ${run.file}` : ""})`,
    );
    failed ||= run.result.violations.length > 0;
  }
}
if (failed) process.exitCode = 1;
