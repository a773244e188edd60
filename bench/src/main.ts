/**
 * `pnpm bench [--quick] [--only <name>] [--push-refused] [--family]`: the contention benchmark.
 * Starts Redis and the network
 * process, runs every scenario for every library, writes BENCHMARKS.md and its plots.
 * `--redis-cost`: only what edgelock costs Redis (each primitive's protocol and own commands,
 * and the saturation scenario), printed.
 * `--family`: only the family scenarios (every queued primitive beside the Lock, N = 8 and 16),
 * written to bench/.family/FAMILY.md; `--only` then picks primitives by name substring.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { FAMILY } from "./libraries/edgelock-family.ts";
import { LIBRARIES } from "./libraries/index.ts";
import { startNetwork } from "./net/network.ts";
import { measureOverhead } from "./net/round-trip.ts";
import { describeMachine } from "./report/machine.ts";
import { renderReport } from "./report/markdown.ts";
import { sweepPlots } from "./report/plots.ts";
import { familyTable, runFamily } from "./scenarios/family.ts";
import { R, runSuite } from "./scenarios/suite.ts";
import { REFUSED_PUSH, runPushRefused } from "./scenarios/push-refused.ts";
import {
  commandSharesTable,
  pushRefusedTable,
  pushScaleTable,
  saturationTable,
} from "./report/tables.ts";
import { runPushScale } from "./scenarios/push-scale.ts";
import { runCommandShares } from "./scenarios/command-shares.ts";
import { runSaturation } from "./scenarios/saturation.ts";
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
const lockWithPush = LIBRARIES.filter((l) => l.name === "edgelock (push)");
const log = (line: string) => console.log(line);
const network = await startNetwork();
if (args.includes("--push-refused")) {
  // Only the refused-push scenario, printed (BENCHMARKS.md untouched): a quick look at its figures.
  try {
    const overhead = await measureOverhead(network, REFUSED_PUSH.rttMs);
    const refused = await runPushRefused(network, quick, quick ? 1 : 2);
    console.log(pushRefusedTable(refused, overhead));
    const scale = await runPushScale(network, quick);
    console.log(pushScaleTable([...scale, ...refused.slice(0, 1).map((p) => p.result)], overhead));
  } finally {
    await network.close();
  }
  process.exit(0);
}
if (args.includes("--redis-cost")) {
  try {
    console.log(commandSharesTable(await runCommandShares(network)));
    console.log(saturationTable(await runSaturation(network, undefined, quick)));
  } finally {
    await network.close();
  }
  process.exit(0);
}
if (args.includes("--family")) {
  try {
    const members = [...lockWithPush, ...FAMILY].filter(
      (l) => only === undefined || l.name.includes(only) || l.name === "edgelock (push)",
    );
    const family = await runFamily(network, members, { quick, log });
    const dir = join(root, "bench/.family");
    mkdirSync(dir, { recursive: true });
    const text = `# Family scenarios (${machine.cpu}; load after ${loadavg()
      .map((v) => v.toFixed(1))
      .join(" / ")})\n\n${familyTable(family)}\n`;
    writeFileSync(join(dir, "FAMILY.md"), text);
    console.log(text);
  } finally {
    await network.close();
  }
  process.exit(0);
}
try {
  const before = await measureOverhead(network, R);
  const results = await runSuite(network, libraries, { quick, log });
  // The family beside the Lock, whenever the run includes edgelock with push.
  const family =
    lockWithPush.length > 0 && libraries.includes(lockWithPush[0]!)
      ? await runFamily(network, [...lockWithPush, ...FAMILY], { quick, log })
      : [];
  const shares = await runCommandShares(network);
  log("command shares done");
  const saturation = await runSaturation(network, undefined, quick);
  for (const r of saturation)
    log(
      `saturation ${r.library.padEnd(24)} ${Math.round(r.pairsPerS)} pairs/s, Redis ${r.redisCore.toFixed(2)} core`,
    );
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
      family,
      shares,
      saturation,
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
