import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { Miniflare } from "miniflare";

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const wrangler = join(root, "node_modules", ".bin", "wrangler");

/** Builds the Worker exactly as `wrangler deploy` would, without uploading: the bundle and its size. */
export async function buildKeeper(): Promise<{ dir: string; bundle: string; bytes: number; output: string; cleanup(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), "lease-keeper-"));
  const { stdout } = await promisify(execFile)(wrangler, ["deploy", "--dry-run", "--outdir", dir], {
    cwd: root,
    env: { ...process.env, WRANGLER_SEND_METRICS: "false", CI: "1" },
  });
  const bundle = join(dir, "index.js");
  return { dir, bundle, bytes: (await stat(bundle)).size, output: stdout, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

export interface RunningKeeper {
  /** http://127.0.0.1:PORT: the keeper Worker, as callers outside Cloudflare reach it. */
  readonly url: string;
  readonly secret: string;
  /** What `wrangler deploy --dry-run` printed, and the bundle's size in bytes. */
  readonly build: { readonly output: string; readonly bytes: number };
  close(): Promise<void>;
}

/** The built keeper Worker in workerd (Miniflare), talking to the given Upstash-compatible REST URL. */
export async function startKeeper(rest: { url: string; token: string }, secret = "keeper-secret-for-tests"): Promise<RunningKeeper> {
  const built = await buildKeeper();
  const mf = new Miniflare({
    // The bundle's text, not its path: Miniflare would resolve module names against the temp dir.
    modules: [{ type: "ESModule", path: "index.js", contents: await readFile(built.bundle, "utf8") }],
    compatibilityDate: "2026-04-01",
    durableObjects: { LEASE_KEEPER: "LeaseKeeper" },
    bindings: { UPSTASH_REDIS_REST_URL: rest.url, UPSTASH_REDIS_REST_TOKEN: rest.token, EDGELOCK_KEEPER_SECRET: secret },
    host: "127.0.0.1",
    port: 0,
  });
  const url = (await mf.ready).href.replace(/\/$/, "");
  return {
    url,
    secret,
    build: { output: built.output, bytes: built.bytes },
    async close() {
      await mf.dispose();
      await built.cleanup();
    },
  };
}
