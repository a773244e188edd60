// pnpm typecheck — every workspace package's `typecheck` (tsc -p <its tsconfig>) in as few
// TypeScript programs as stay exact, instead of one tsc per package, each re-checking the core,
// the testkit and node-redis's heavy types.
//
// Exact: projects share a program only when their tsconfigs give identical compiler options and
// automatic `types`, so every file is checked with its own package's options, and only when
// neither would see a global declaration from the other's files (scripts/lib/ts-leaks.ts). A
// `typecheck` script that is not plain `tsc [-p file]` runs as it is. The diagnostics are those
// `tsc -p` reports. `pnpm typecheck:packages` runs each package's own tsc, the slow way.
//
//   tsx scripts/typecheck.ts          check (two programs at a time)
//   tsx scripts/typecheck.ts --plan   show which projects share a program, check nothing
import { fork, spawn } from "node:child_process";
import { availableParallelism } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { clusters } from "./lib/ts-leaks.ts";
import {
  checkProgram,
  createProgram,
  optionsKey,
  parseConfig,
  type CheckResult,
  type Project,
} from "./lib/ts-program.ts";
import { REPO_ROOT, workspacePackages } from "./lib/workspace.ts";

/** Projects outside any workspace package that are checked too. */
const EXTRA_PROJECTS: readonly Project[] = [
  { name: "scripts", config: join(REPO_ROOT, "scripts/tsconfig.json") },
];

/** What one worker checks: one program, or a package's own typecheck script. */
type Unit =
  | { readonly kind: "program"; readonly projects: readonly Project[]; readonly files: number }
  | { readonly kind: "script"; readonly name: string; readonly dir: string };

interface UnitResult extends CheckResult {
  readonly ms: number;
}

if (process.argv[2] === "--worker") {
  process.once("message", (projects: Project[]) => {
    const result = checkProgram(createProgram(projects), process.stdout.isTTY === true);
    process.send!(result, () => process.exit(0));
  });
} else {
  process.exitCode = await main();
}

async function main(): Promise<number> {
  const started = performance.now();
  const { units, notes } = plan();
  for (const note of notes) console.log(`typecheck: ${note}`);
  if (process.argv.includes("--plan")) {
    for (const unit of units) console.log(`  ${describe(unit)}`);
    return 0;
  }
  // Each program of most of the workspace takes ~2 GB: two at a time suit a small machine.
  const concurrency = Math.max(1, Math.min(availableParallelism(), 2, units.length));
  const queue = [...units].sort((a, b) => weight(b) - weight(a));
  let errors = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let unit = queue.shift(); unit !== undefined; unit = queue.shift()) {
        const result = await runUnit(unit);
        errors += result.errors;
        const status = result.errors === 0 ? "ok" : `${result.errors} error(s)`;
        const seconds = (result.ms / 1000).toFixed(1).padStart(6);
        console.log(`${seconds} s  ${status.padEnd(12)} ${describe(unit)}`);
        if (result.output !== "") process.stdout.write(result.output);
      }
    }),
  );
  const projects = units.reduce((n, u) => n + (u.kind === "program" ? u.projects.length : 1), 0);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(
    `typecheck: ${projects} projects in ${units.length} programs, ${errors} error(s), ${seconds} s`,
  );
  return errors === 0 ? 0 : 1;
}

function describe(unit: Unit): string {
  return unit.kind === "program"
    ? `${unit.projects.map((p) => p.name).join(", ")} (${unit.files} files)`
    : `${unit.name} (its own typecheck script)`;
}

function weight(unit: Unit): number {
  return unit.kind === "program" ? unit.files : 1_000;
}

/** Which programs to build: one per set of identical options, split where globals would leak. */
function plan(): { units: Unit[]; notes: string[] } {
  const units: Unit[] = [];
  const notes: string[] = [];
  const projects: Project[] = [];
  for (const pkg of workspacePackages()) {
    const script = pkg.manifest.scripts?.["typecheck"];
    if (script === undefined) continue;
    const config = tscConfigOf(script, pkg.dir);
    if (config === undefined) units.push({ kind: "script", name: pkg.name, dir: pkg.dir });
    else projects.push({ name: pkg.name, config });
  }
  for (const extra of EXTRA_PROJECTS) if (ts.sys.fileExists(extra.config)) projects.push(extra);
  const groups = new Map<string, Project[]>();
  for (const project of projects) {
    const parsed = parseConfig(project.config);
    // Project references change what tsc checks (and need a build): such a project runs alone.
    const key = parsed.projectReferences?.length ? `alone:${project.config}` : optionsKey(parsed);
    groups.set(key, [...(groups.get(key) ?? []), project]);
  }
  const cache = new Map<string, ts.SourceFile>();
  for (const group of groups.values()) {
    const program = createProgram(group, cache);
    const found =
      group.length > 1
        ? clusters(program, group)
        : [{ projects: group, notes: [], files: program.getSourceFiles().length }];
    for (const cluster of found) {
      notes.push(...cluster.notes);
      units.push({ kind: "program", projects: cluster.projects, files: cluster.files });
    }
  }
  return { units, notes };
}

/** The tsconfig a `typecheck` script checks, when the script is plain `tsc [-p file]`. */
function tscConfigOf(script: string, dir: string): string | undefined {
  const match = /^tsc(?:\s+(?:-p|--project)\s+(\S+))?(?:\s+--noEmit)?$/.exec(script.trim());
  if (match === null) return undefined;
  if (match[1] === undefined) return ts.findConfigFile(dir, ts.sys.fileExists);
  const given = resolve(dir, match[1]);
  return ts.sys.directoryExists(given) ? join(given, "tsconfig.json") : given;
}

function runUnit(unit: Unit): Promise<UnitResult> {
  const started = performance.now();
  if (unit.kind === "script") {
    return new Promise((done, fail) => {
      const child = spawn("pnpm", ["run", "--silent", "typecheck"], {
        cwd: unit.dir,
        stdio: ["ignore", "pipe", "pipe"],
      });
      let output = "";
      child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
      child.once("error", fail);
      child.once("close", (code) =>
        done({ errors: code === 0 ? 0 : 1, output, ms: performance.now() - started }),
      );
    });
  }
  return new Promise((done, fail) => {
    const child = fork(fileURLToPath(import.meta.url), ["--worker"], {
      stdio: ["ignore", "inherit", "inherit", "ipc"],
      execArgv: [...process.execArgv, "--max-old-space-size=4096"],
    });
    let result: CheckResult | undefined;
    child.once("message", (message) => (result = message as CheckResult));
    child.once("error", fail);
    child.once("exit", (code) => {
      if (result !== undefined) done({ ...result, ms: performance.now() - started });
      else fail(new Error(`typecheck worker exited with ${code} and no result`));
    });
    child.send(unit.projects);
  });
}
