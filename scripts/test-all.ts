// pnpm test — everything CI checks, in order, stopping at the first stage that fails: the
// install (a workspace cycle or a stale lockfile fails it), typecheck, lint, build, the Worker
// bundle budgets, publint, the
// doc-snippet check, the packed-tarball/example/guide runs, then the vitest suite in three
// stages: the unit projects (`*:unit`, no Redis: vitest.split.ts), the integration ones, and the
// campaign's adversary gate and mutations (`campaign:adversary`). Prints
// each stage's wall time and each vitest stage's counts, then, as the very last line, the
// suite's `N passed, N failed` (every vitest stage together).
//
//   pnpm test                  every stage
//   pnpm test --from build     start at a stage (the ones before it are skipped, and said so)
//   pnpm test --until lint     stop after a stage (the static checks only, say)
//   pnpm test:unit             the unit projects alone (pnpm test:integration, test:adversary: the rest)
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ADVERSARY_PROJECTS, INTEGRATION_PROJECTS, UNIT_PROJECTS } from "../vitest.split.ts";
import { REPO_ROOT } from "./lib/workspace.ts";

interface Stage {
  readonly name: string;
  readonly command: readonly string[];
  /** Where a vitest stage writes its JSON report. */
  readonly report?: string;
}

const scratch = mkdtempSync(join(tmpdir(), "edgelock-test-all-"));

/** A vitest run of the projects `filter` selects, with its JSON report in the scratch folder. */
function vitestStage(name: string, filter: string, ...extra: string[]): Stage {
  const report = join(scratch, `${name}.json`);
  return {
    name,
    report,
    command: [
      "pnpm",
      "exec",
      "vitest",
      "run",
      `--project=${filter}`,
      "--reporter=default",
      "--reporter=json",
      `--outputFile.json=${report}`,
      ...extra,
    ],
  };
}

const STAGES: readonly Stage[] = [
  // disallowWorkspaceCycles (pnpm-workspace.yaml) makes a cycle an install error.
  { name: "install", command: ["pnpm", "install", "--frozen-lockfile", "--prefer-offline"] },
  { name: "typecheck", command: ["pnpm", "run", "typecheck"] },
  { name: "lint", command: ["pnpm", "run", "lint"] },
  { name: "build", command: ["pnpm", "run", "build"] },
  // Worker bundles within their budgets (bench/src/size/entries.ts): a size regression fails CI.
  { name: "check:sizes", command: ["pnpm", "run", "check:sizes"] },
  { name: "publint", command: ["pnpm", "run", "publint"] },
  { name: "check:docs", command: ["pnpm", "run", "check:docs"] },
  { name: "check:packs", command: ["pnpm", "run", "check:packs"] },
  // Pure tests first: a broken key encoding or parser fails in seconds, before any Redis starts.
  vitestStage("unit", UNIT_PROJECTS),
  vitestStage("integration", INTEGRATION_PROJECTS),
  // The adversary gate and the mutations last, alone and one file after the other: their worlds'
  // timings then meet only their own load (beside each other on 2 cores, mutations that are
  // caught 20/20 alone fell to 16–18/20), and this stage's wall time is what they add.
  vitestStage("adversary", ADVERSARY_PROJECTS, "--maxWorkers=1"),
];

const first = stageIndex("--from", 0);
const last = stageIndex("--until", STAGES.length - 1);

/** The stage an option names, or `fallback` without the option. */
function stageIndex(option: string, fallback: number): number {
  const at = process.argv.indexOf(option);
  if (at < 0) return fallback;
  const index = STAGES.findIndex((stage) => stage.name === process.argv[at + 1]);
  if (index >= 0) return index;
  console.error(`test-all: ${option} takes a stage: ${STAGES.map((s) => s.name).join(", ")}`);
  process.exit(2);
}

const timings: { name: string; seconds: number | undefined; status: string }[] = STAGES.slice(
  0,
  first,
).map((stage) => ({ name: stage.name, seconds: undefined, status: "skipped (--from)" }));
const started = performance.now();
let failed: Stage | undefined;
for (const stage of STAGES.slice(first, last + 1)) {
  console.log(`\n▶ ${stage.name}: ${stage.command.join(" ")}`);
  const t0 = performance.now();
  const code = await run(stage.command);
  const seconds = (performance.now() - t0) / 1000;
  const status = code === 0 ? "ok" : `failed (exit ${code})`;
  timings.push({ name: stage.name, seconds, status });
  console.log(`${code === 0 ? "✔" : "✘"} ${stage.name}: ${status} in ${seconds.toFixed(1)} s`);
  if (code !== 0) {
    failed = stage;
    break;
  }
}
for (const stage of STAGES.slice(timings.length))
  timings.push({
    name: stage.name,
    seconds: undefined,
    status: failed === undefined ? "skipped (--until)" : "not run",
  });

const total = (performance.now() - started) / 1000;
console.log("\nstage          wall time  status");
for (const { name, seconds, status } of timings)
  console.log(
    `${name.padEnd(14)} ${(seconds === undefined ? "-" : `${seconds.toFixed(1)} s`).padStart(9)}  ${status}`,
  );
console.log(`${"total".padEnd(14)} ${`${total.toFixed(1)} s`.padStart(9)}`);

const vitestStages = STAGES.filter((stage) => stage.report !== undefined);
const ran = vitestStages.filter((stage) =>
  timings.some((t) => t.name === stage.name && t.seconds !== undefined),
);
const counts = ran.map((stage) => ({ stage, counts: vitestCounts(stage.report!) }));
rmSync(scratch, { recursive: true, force: true });
for (const { stage, counts: c } of counts)
  console.log(
    `${stage.name}: ${c === undefined ? "no report" : `${c.passed} passed, ${c.failed} failed`}`,
  );
if (ran.length === 0) {
  const why = failed === undefined ? "skipped" : `not run: stopped at ${failed.name}`;
  console.log(`\ntest-all: the vitest suite was ${why}`);
  process.exitCode = failed === undefined ? 0 : 1;
} else if (counts.some(({ counts: c }) => c === undefined)) {
  console.log("\ntest-all: a vitest stage wrote no report");
  process.exitCode = 1;
} else {
  const passed = counts.reduce((sum, { counts: c }) => sum + c!.passed, 0);
  const failedTests = counts.reduce((sum, { counts: c }) => sum + c!.failed, 0);
  // CI reads the closing line.
  console.log(`\n${passed} passed, ${failedTests} failed`);
  process.exitCode = failed === undefined && failedTests === 0 ? 0 : 1;
}

function run(command: readonly string[]): Promise<number> {
  return new Promise((done) => {
    const child = spawn(command[0]!, command.slice(1), { cwd: REPO_ROOT, stdio: "inherit" });
    child.once("error", (error) => {
      console.error(error);
      done(127);
    });
    child.once("close", (code, signal) => done(code ?? (signal === null ? 1 : 128)));
  });
}

/** The suite's counts; a test file that failed without a failing test (it did not load) counts as one. */
function vitestCounts(vitestReport: string): { passed: number; failed: number } | undefined {
  try {
    const report = JSON.parse(readFileSync(vitestReport, "utf8")) as {
      numPassedTests: number;
      numFailedTests: number;
      testResults: { status: string; assertionResults: { status: string }[] }[];
    };
    const brokenFiles = report.testResults.filter(
      (file) =>
        file.status === "failed" && !file.assertionResults.some((test) => test.status === "failed"),
    ).length;
    return { passed: report.numPassedTests, failed: report.numFailedTests + brokenFiles };
  } catch {
    return undefined;
  }
}
