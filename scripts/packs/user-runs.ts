import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { freePort, run, startBackground, StepError, waitForHttp } from "./processes.ts";

/** Where the check's rest-server listens, and the copied projects. */
export interface RunContext {
  readonly restUrl: string;
  readonly restToken: string;
  /** Copied project folder by example name (and "tools"). */
  readonly dirs: ReadonlyMap<string, string>;
  /** Records how long a step took. */
  step<T>(label: string, work: () => Promise<T>): Promise<T>;
}

const QUIET = {
  ...process.env,
  CI: "1",
  NEXT_TELEMETRY_DISABLED: "1",
  WRANGLER_SEND_METRICS: "false",
  NO_COLOR: "1",
  FORCE_COLOR: "0",
};

const npm = (dir: string, args: string[], env: NodeJS.ProcessEnv = QUIET) =>
  run("npm", args, { cwd: dir, env });

function expect(condition: boolean, what: string, got: unknown): void {
  if (!condition) throw new StepError(`${what}; got ${JSON.stringify(got)}`);
}

/** examples/node-script: typecheck, then `npm start` against the rest-server, as its README says. */
export async function runNodeScript(ctx: RunContext): Promise<void> {
  const dir = ctx.dirs.get("node-script")!;
  await ctx.step("node-script: npm run typecheck", () => npm(dir, ["run", "typecheck"]));
  const { output } = await ctx.step("node-script: npm start", () =>
    npm(dir, ["start"], {
      ...QUIET,
      UPSTASH_REDIS_REST_URL: ctx.restUrl,
      UPSTASH_REDIS_REST_TOKEN: ctx.restToken,
    }),
  );
  expect(/step 3\/3 done\s+done\s*$/.test(output), "npm start should finish the job", output);
}

/** A Worker example: typecheck, `wrangler deploy --dry-run`, then `wrangler dev` with .dev.vars. */
async function buildAndServeWorker(
  ctx: RunContext,
  name: string,
  vars: Record<string, string>,
  use: (url: string) => Promise<void>,
): Promise<void> {
  const dir = ctx.dirs.get(name)!;
  await ctx.step(`${name}: npm run typecheck`, () => npm(dir, ["run", "typecheck"]));
  const build = await ctx.step(`${name}: wrangler deploy --dry-run`, () =>
    npm(dir, ["run", "build"]),
  );
  expect(
    /env\.LEASE_KEEPER \(LeaseKeeper\)\s+Durable Object/.test(build.output),
    "the dry run should bind LeaseKeeper",
    build.output,
  );
  await writeFile(
    join(dir, ".dev.vars"),
    Object.entries(vars)
      .map(([k, v]) => `${k}=${v}\n`)
      .join(""),
  );
  const [port, inspectorPort] = [await freePort(), await freePort()];
  const dev = startBackground(
    join(dir, "node_modules", ".bin", "wrangler"),
    ["dev", "--ip", "127.0.0.1", "--port", String(port), "--inspector-port", String(inspectorPort)],
    { cwd: dir, env: QUIET },
  );
  try {
    const url = `http://127.0.0.1:${port}`;
    await ctx.step(`${name}: wrangler dev ready`, () => waitForHttp(url, dev));
    await ctx.step(`${name}: requests`, () => use(url));
  } finally {
    await dev.stop();
  }
}

/** examples/cloudflare-worker under `wrangler dev`: the guide's pay handler and a locked counter. */
export function runCloudflareWorker(ctx: RunContext): Promise<void> {
  const vars = {
    UPSTASH_REDIS_REST_URL: ctx.restUrl,
    UPSTASH_REDIS_REST_TOKEN: ctx.restToken,
    EDGELOCK_KEEPER_SECRET: crypto.randomUUID(),
  };
  return buildAndServeWorker(ctx, "cloudflare-worker", vars, async (url) => {
    const id = crypto.randomUUID();
    const paid = await Promise.all(
      [1, 2, 3].map(() =>
        fetch(`${url}/orders/${id}/pay`, { method: "POST" }).then(
          async (r) => `${r.status} ${((await r.json()) as { status?: string }).status}`,
        ),
      ),
    );
    expect(
      paid.sort().join() === "200 charged,200 paid,200 paid",
      "three racing payments should charge once",
      paid,
    );
    const counter = crypto.randomUUID();
    const increments = await Promise.all(
      [1, 2, 3, 4].map(() => fetch(`${url}/counters/${counter}/increment`, { method: "POST" })),
    );
    expect(
      increments.every((r) => r.status === 200),
      "locked increments should succeed",
      increments.map((r) => r.status),
    );
    const value = (await (await fetch(`${url}/counters/${counter}`)).json()) as { value: number };
    expect(value.value === 4, "four locked increments should count four", value);
  });
}

/**
 * examples/lease-keeper-worker under `wrangler dev`, driven from Node with the published
 * packages (as a Vercel function would): a handed-over lease outlives its own lease, the CLI
 * (`npx @edgelock/cli inspect`, as the guides say) shows it, and the keeper releases it.
 */
export function runLeaseKeeperWorker(ctx: RunContext): Promise<void> {
  const secret = crypto.randomUUID();
  const vars = {
    UPSTASH_REDIS_REST_URL: ctx.restUrl,
    UPSTASH_REDIS_REST_TOKEN: ctx.restToken,
    EDGELOCK_KEEPER_SECRET: secret,
  };
  return buildAndServeWorker(ctx, "lease-keeper-worker", vars, async (url) => {
    const tools = ctx.dirs.get("tools")!;
    const { output } = await npm(tools, ["exec", "--", "node", "keeper-client.mjs"], {
      ...QUIET,
      UPSTASH_REDIS_REST_URL: ctx.restUrl,
      UPSTASH_REDIS_REST_TOKEN: ctx.restToken,
      EDGELOCK_KEEPER_URL: url,
      EDGELOCK_KEEPER_SECRET: secret,
    });
    expect(output.includes("keeper ok"), "the keeper client script should pass", output);
  });
}

/** The Node program the lease-keeper run uses, written into the tools project. */
export const KEEPER_CLIENT_SCRIPT = `
import { execFileSync } from "node:child_process";
import { createClient } from "@edgelock/core";
import { httpTransport, leaseKeeperClient } from "@edgelock/cloudflare";

const env = process.env;
const edgelock = createClient({
  redis: { url: env.UPSTASH_REDIS_REST_URL, token: env.UPSTASH_REDIS_REST_TOKEN },
});
const name = "check-packs:" + crypto.randomUUID();
const lock = edgelock.lock(name);
const held = await lock.acquire({ leaseMs: 1_000 });
const keeper = leaseKeeperClient(
  httpTransport({ url: env.EDGELOCK_KEEPER_URL, secret: env.EDGELOCK_KEEPER_SECRET }),
);
const kept = await keeper.keep(held.toJSON(), { maxHoldMs: 60_000, leaseMs: 1_000 });
if (kept.state !== "kept") throw new Error("keep answered " + JSON.stringify(kept));
await new Promise((resolve) => setTimeout(resolve, 1_800));
if (!(await lock.isLocked())) throw new Error("the keeper did not renew the lease");
const shown = execFileSync("npx", ["@edgelock/cli", "inspect", name], { encoding: "utf8" });
if (!shown.includes(name)) throw new Error("npx @edgelock/cli inspect did not show it:\\n" + shown);
const released = await keeper.release(held.toJSON());
if (released.state !== "released") throw new Error("release answered " + JSON.stringify(released));
if (await lock.isLocked()) throw new Error("still locked after the keeper released it");
await edgelock.settled();
console.log("keeper ok");
`;

/** examples/vercel-function: `next build` (Next.js type-checks the route), `next start`, requests. */
export async function runVercelFunction(ctx: RunContext): Promise<void> {
  const dir = ctx.dirs.get("vercel-function")!;
  const tsconfig = await readFile(join(dir, "tsconfig.json"), "utf8");
  await ctx.step("vercel-function: next build", () => npm(dir, ["run", "build"]));
  const after = await readFile(join(dir, "tsconfig.json"), "utf8");
  expect(after === tsconfig, "next build should find tsconfig.json as Next.js wants it", after);
  const port = await freePort();
  const server = startBackground(
    join(dir, "node_modules", ".bin", "next"),
    ["start", "--port", String(port), "--hostname", "127.0.0.1"],
    {
      cwd: dir,
      env: {
        ...QUIET,
        UPSTASH_REDIS_REST_URL: ctx.restUrl,
        UPSTASH_REDIS_REST_TOKEN: ctx.restToken,
      },
    },
  );
  try {
    const url = `http://127.0.0.1:${port}`;
    await ctx.step("vercel-function: next start ready", () => waitForHttp(url, server));
    await ctx.step("vercel-function: requests", async () => {
      const name = crypto.randomUUID();
      const answers = await Promise.all(
        [1, 2, 3].map(() =>
          fetch(`${url}/api/counters/${name}/increment`, { method: "POST" }).then(
            async (r) => [r.status, ((await r.json()) as { value?: number }).value] as const,
          ),
        ),
      );
      const values = answers.map(([, v]) => v).sort();
      expect(
        answers.every(([s]) => s === 200) && values.join() === "1,2,3",
        "three racing increments should count 1, 2, 3",
        answers,
      );
    });
  } finally {
    await server.stop();
  }
}
