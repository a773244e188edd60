/**
 * `pnpm bench [--quick] [--only <name>] [--push-refused]`: the contention benchmark. Starts Redis and the network
 * process, runs every scenario for every library, writes BENCHMARKS.md and its plots.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { LIBRARIES } from "./libraries/index.ts";
import { startNetwork } from "./net/network.ts";
import { measureOverhead } from "./net/round-trip.ts";
import { describeMachine } from "./report/machine.ts";
import { renderReport } from "./report/markdown.ts";
import { sweepPlots } from "./report/plots.ts";
import { R, runSuite } from "./scenarios/suite.ts";
import { REFUSED_PUSH, runPushRefused } from "./scenarios/push-refused.ts";
import { pushRefusedTable } from "./report/tables.ts";
import { measureSizes } from "./size/main.ts";

const args = process.argv.slice(2);
const quick = args.includes("--quick");
const onlyAt = args.indexOf("--only");
const only = onlyAt >= 0 ? args[onlyAt + 1] : undefined;
const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const outDir = quick ? join(root, "bench/.quick") : root;
const plotDir = quick ? outDir : join(root, "bench/plots");

const machine = describeMachine();
const started = performance.now();
const libraries = LIBRARIES.filter((l) => only === undefined || l.name.includes(only));
const network = await startNetwork();
if (args.includes("--push-refused")) {
  // Only the refused-push scenario, printed (BENCHMARKS.md untouched): a quick look at its figures.
  try {
    const overhead = await measureOverhead(network, REFUSED_PUSH.rttMs);
    console.log(pushRefusedTable(await runPushRefused(network, quick, quick ? 1 : 2), overhead));
  } finally {
    await network.close();
  }
  process.exit(0);
}
try {
  const before = await measureOverhead(network, R);
  const results = await runSuite(network, libraries, { quick, log: (line) => console.log(line) });
  const after = await measureOverhead(network, R);
  const overhead = { rest: (before.rest + after.rest) / 2, tcp: (before.tcp + after.tcp) / 2 };
  const plots = sweepPlots(results);
  mkdirSync(plotDir, { recursive: true });
  mkdirSync(outDir, { recursive: true });
  writeFileSync(join(plotDir, "efficiency.svg"), plots.efficiency);
  writeFileSync(join(plotDir, "requests.svg"), plots.requests);
  const report = join(outDir, "BENCHMARKS.md");
  writeFileSync(
    report,
    renderReport({
      command: `pnpm bench${quick ? " --quick" : ""}${only ? ` --only ${only}` : ""}`,
      quick,
      machine,
      loadAfter: loadavg(),
      durationS: (performance.now() - started) / 1000,
      overhead,
      sizes: await measureSizes(),
      libraries,
      results,
      plots: {
        efficiency: relative(outDir, join(plotDir, "efficiency.svg")),
        requests: relative(outDir, join(plotDir, "requests.svg")),
      },
    }),
  );
  console.log(
    `wrote ${relative(process.cwd(), report)} in ${Math.round((performance.now() - started) / 1000)} s`,
  );
} finally {
  await network.close();
}
