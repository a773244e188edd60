// pnpm check:packs — what a user gets from npm, tried as a user would (run `pnpm build` first):
// every public package packed with `pnpm pack`; every example copied out of the repository,
// installed with npm from those tarballs (one npm cache for all), built and run against a local
// redis-server behind the packed rest-server: the Node script with `npm start`, the Workers with
// `wrangler deploy --dry-run` and `wrangler dev`, the Next.js app with `next build` and
// `next start`. The guides include these examples' files verbatim (checked by check:docs).
import { rmSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { packPublicPackages, ROOT } from "./lib/public-packages.ts";
import { copyProject } from "./packs/copy-project.ts";
import {
  freePort,
  killAll,
  run,
  startBackground,
  waitForHttp,
  waitForOutput,
  type Background,
} from "./packs/processes.ts";
import {
  KEEPER_CLIENT_SCRIPT,
  runCloudflareWorker,
  runLeaseKeeperWorker,
  runNodeScript,
  runVercelFunction,
  type RunContext,
} from "./packs/user-runs.ts";

/** The examples a user may copy out of the repository. */
const EXAMPLES = ["node-script", "cloudflare-worker", "lease-keeper-worker", "vercel-function"];
/** One npm cache for every install of the check (warm after the first run). */
const NPM_CACHE = process.env["EDGELOCK_NPM_CACHE"] ?? join(homedir(), ".npm");

const started = performance.now();
const timings: Array<[string, number]> = [];
async function step<T>(label: string, work: () => Promise<T>): Promise<T> {
  const t0 = performance.now();
  try {
    return await work();
  } finally {
    timings.push([label, performance.now() - t0]);
    console.log(`  ${((performance.now() - t0) / 1000).toFixed(1).padStart(6)} s  ${label}`);
  }
}

checkLockfileLinksExamples(await readFile(join(ROOT, "pnpm-lock.yaml"), "utf8"));
const work = await mkdtemp(join(tmpdir(), "edgelock-packs-"));
const stops: Array<() => Promise<void>> = [];
// Interrupted: kill every server and command (their own process groups), remove the copies.
for (const signal of ["SIGINT", "SIGTERM"] as const)
  process.once(signal, () => {
    console.error(`check:packs: ${signal}: stopping`);
    killAll();
    rmSync(work, { recursive: true, force: true });
    process.exit(130);
  });
let failed = false;
try {
  const [tarballs, redisUrl] = await Promise.all([
    step("pnpm pack (every public package)", () => packPublicPackages(join(work, "packs"))),
    step("redis-server", () => startRedisServer(join(work, "redis"))),
  ]);

  const dirs = new Map<string, string>();
  for (const name of EXAMPLES) {
    dirs.set(name, join(work, name));
    await copyProject(join(ROOT, "examples", name), join(work, name), tarballs);
  }
  dirs.set("tools", await toolsProject(join(work, "tools"), tarballs));
  await Promise.all(
    [...dirs].map(([name, dir]) =>
      step(`${name}: npm install`, () =>
        run(
          "npm",
          ["install", "--no-audit", "--no-fund", "--prefer-offline", "--cache", NPM_CACHE],
          { cwd: dir },
        ),
      ),
    ),
  );

  const restToken = crypto.randomUUID();
  const restPort = await freePort();
  const rest: Background = startBackground(
    join(dirs.get("tools")!, "node_modules", ".bin", "edgelock-rest-server"),
    ["--redis-url", redisUrl, "--port", String(restPort), "--token", restToken],
    { cwd: dirs.get("tools")! },
  );
  stops.push(() => rest.stop());
  const restUrl = `http://127.0.0.1:${restPort}`;
  await step("rest-server (packed): ready", () => waitForHttp(restUrl, rest));

  const ctx: RunContext = { restUrl, restToken, dirs, step };
  // Two lanes for two cores: the Next.js build in one, everything else in the other.
  const lanes = await Promise.allSettled([
    runVercelFunction(ctx),
    (async () => {
      await runNodeScript(ctx);
      await runCloudflareWorker(ctx);
      await runLeaseKeeperWorker(ctx);
    })(),
  ]);
  for (const lane of lanes)
    if (lane.status === "rejected") {
      failed = true;
      console.error(`\n${(lane.reason as Error).message}`);
    }
} catch (error) {
  failed = true;
  console.error(`\n${(error as Error).message}`);
} finally {
  for (const stop of stops.reverse()) await stop().catch(() => undefined);
  await rm(work, { recursive: true, force: true });
}
const total = ((performance.now() - started) / 1000).toFixed(1);
console.log(`check:packs: ${failed ? "FAILED" : "passed"} in ${total} s (npm cache ${NPM_CACHE})`);
process.exitCode = failed ? 1 : 0;

/** A throwaway redis-server (no persistence) on a free port; `redis://127.0.0.1:PORT`. */
async function startRedisServer(dir: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  const port = await freePort();
  const redis = startBackground(
    "redis-server",
    [
      "--port",
      String(port),
      "--bind",
      "127.0.0.1",
      "--save",
      "",
      "--appendonly",
      "no",
      "--dir",
      dir,
    ],
    { cwd: dir },
  );
  stops.push(() => redis.stop());
  await waitForOutput(redis, /Ready to accept connections/);
  return `redis://127.0.0.1:${port}`;
}

/** A project of the user's tools: the packed rest-server and CLI, and core + cloudflare for a script. */
async function toolsProject(dir: string, tarballs: ReadonlyMap<string, string>): Promise<string> {
  await mkdir(dir, { recursive: true });
  const pick = ["@edgelock/core", "@edgelock/cloudflare", "@edgelock/rest-server", "@edgelock/cli"];
  const file = (name: string) => `file:${tarballs.get(name)}`;
  const manifest = {
    name: "edgelock-check-tools",
    private: true,
    type: "module",
    dependencies: Object.fromEntries(pick.map((n) => [n, file(n)])),
    overrides: Object.fromEntries([...tarballs.keys()].map((n) => [n, file(n)])),
  };
  await writeFile(join(dir, "package.json"), JSON.stringify(manifest, null, 2) + "\n");
  await writeFile(join(dir, "keeper-client.mjs"), KEEPER_CLIENT_SCRIPT);
  return dir;
}

/** In the monorepo the examples' "^0.1.0" must link the workspace packages, never the registry. */
function checkLockfileLinksExamples(lockfile: string): void {
  for (const name of EXAMPLES) {
    const section = new RegExp(`\\n  examples/${name}:\\n([\\s\\S]*?)(?=\\n  \\S|\\n\\S|$)`).exec(
      lockfile,
    )?.[1];
    if (!section)
      throw new Error(`pnpm-lock.yaml has no importer examples/${name}: run pnpm install`);
    for (const m of section.matchAll(
      /'(@edgelock\/[^']+)':\n\s+specifier: (.*)\n\s+version: (.*)/g,
    ))
      if (!m[3]!.startsWith("link:"))
        throw new Error(
          `pnpm-lock.yaml: examples/${name} takes ${m[1]} ${m[2]} from ${m[3]}, not the workspace ` +
            `(linkWorkspacePackages must stay true in pnpm-workspace.yaml)`,
        );
  }
}
