import { createHash } from "node:crypto";
import { CONFIGS } from "../../src/adversary/configs.ts";
import { runAdversary } from "../../src/adversary/run.ts";
import * as lock from "../../../packages/core/src/lock/scripts.generated.ts";

// Run by against-old-core.ts under the resolve hook: every config, EDGELOCK_ADVERSARY_RUNS runs
// of EDGELOCK_CAMPAIGN_SECONDS each, printing violations per config and kind.
const runs = Number(process.env["EDGELOCK_ADVERSARY_RUNS"] ?? 5);
const seconds = Number(process.env["EDGELOCK_CAMPAIGN_SECONDS"] ?? 5);
const seed = Number(process.env["EDGELOCK_CAMPAIGN_SEED"] ?? 1);
const only = process.env["EDGELOCK_ADVERSARY_CONFIG"]?.split(",");
const sha = (s: string) => createHash("sha1").update(s).digest("hex").slice(0, 8);
console.log(`core under test: ${process.env["EDGELOCK_OLD_CORE_SRC"] ?? "this checkout"}`);
console.log(`  lock/acquire ${sha(lock.acquireScript.source)}`);
for (const config of CONFIGS.filter((c) => only === undefined || only.includes(c.name))) {
  const kinds: Record<string, number> = {};
  const failing: string[] = [];
  let violations = 0;
  let sections = 0;
  const started = Date.now();
  for (let r = 0; r < runs; r++) {
    let run;
    try {
      run = await runAdversary({ config, seed: seed + r, seconds, dumpDir: "/tmp" });
    } catch (error) {
      kinds[`run failed: ${String(error).slice(0, 80)}`] =
        (kinds[`run failed: ${String(error).slice(0, 80)}`] ?? 0) + 1;
      continue;
    }
    sections += run.result.sections.total;
    violations += run.result.violations.length;
    if (run.result.violations.length > 0) failing.push(String(seed + r));
    for (const [cls, n] of Object.entries(run.result.counts)) kinds[cls] = (kinds[cls] ?? 0) + n;
  }
  const list = Object.entries(kinds)
    .sort((a, b) => b[1] - a[1])
    .map(([k, n]) => `${k} ${n}`)
    .join(", ");
  console.log(
    `${config.name}: ${failing.length}/${runs} runs with violations, ${violations} violations, ${sections} sections (${((Date.now() - started) / 1000).toFixed(0)} s)${list ? `\n  ${list}` : ""}`,
  );
}
process.exit(0);
