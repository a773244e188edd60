// Builds a Worker the way `wrangler deploy` does and serves it from workerd (Miniflare): used by
// the Worker tests and by the demo. A subpath export, so plain testkit users never load Miniflare.
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { Miniflare } from "miniflare";

export interface BuiltWorker {
  readonly bundle: string;
  readonly bytes: number;
  /** What `wrangler deploy --dry-run` printed (bindings, "Total Upload: … / gzip: …"). */
  readonly output: string;
  cleanup(): Promise<void>;
}

/** Builds the Worker in `root` exactly as `wrangler deploy` would, without uploading. */
export async function buildWorker(root: string): Promise<BuiltWorker> {
  const dir = await mkdtemp(join(tmpdir(), "edgelock-worker-"));
  const { stdout } = await promisify(execFile)(
    join(root, "node_modules", ".bin", "wrangler"),
    ["deploy", "--dry-run", "--outdir", dir],
    {
      cwd: root,
      env: { ...process.env, WRANGLER_SEND_METRICS: "false", CI: "1" },
    },
  );
  const bundle = join(dir, "index.js");
  return {
    bundle,
    bytes: (await stat(bundle)).size,
    output: stdout,
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
}

export interface RunningWorker {
  /** http://127.0.0.1:PORT */
  readonly url: string;
  readonly build: BuiltWorker;
  close(): Promise<void>;
}

/** Builds the Worker in `root` and serves the bundle from workerd (Miniflare) with these bindings. */
export async function runWorker(
  root: string,
  bindings: Record<string, string>,
  durableObjects: Record<string, string> = {},
): Promise<RunningWorker> {
  const build = await buildWorker(root);
  const mf = new Miniflare({
    // The bundle's text, not its path: Miniflare would resolve module names against the temp dir.
    modules: [
      { type: "ESModule", path: "index.js", contents: await readFile(build.bundle, "utf8") },
    ],
    compatibilityDate: "2026-04-01",
    durableObjects,
    bindings,
    host: "127.0.0.1",
    port: 0,
  });
  try {
    const url = (await mf.ready).href.replace(/\/$/, "");
    return {
      url,
      build,
      close: async () => void (await Promise.all([mf.dispose(), build.cleanup()])),
    };
  } catch (error) {
    await Promise.all([mf.dispose().catch(() => undefined), build.cleanup()]);
    throw error;
  }
}
