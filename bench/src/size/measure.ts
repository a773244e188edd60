import { gzipSync } from "node:zlib";
import { resolve } from "node:path";
import { build } from "esbuild";
import type { SizeEntry } from "./entries.ts";

export interface ModuleShare {
  /** A folder of a package (`core/lock`), or `core Lua` for the generated scripts. */
  readonly module: string;
  readonly minified: number;
}

export interface SizeMeasure {
  readonly entry: string;
  readonly minified: number;
  readonly gzipped: number;
  /** Minified bytes per module, largest first. */
  readonly modules: readonly ModuleShare[];
  /** Every source file with bytes in the bundle, relative to `packages/`. */
  readonly files: readonly string[];
}

/**
 * Bundles one Worker as wrangler does (esbuild; `workerd`, `worker`, `browser` conditions;
 * ESM), minified, `@upstash/redis` left out as the peer it is, then gzips it (level 9).
 * `root` is the repository whose packages it resolves (this checkout by default).
 */
export async function measureEntry(entry: SizeEntry, root: string): Promise<SizeMeasure> {
  const pkg = (path: string) => resolve(root, "packages", path);
  const result = await build({
    stdin: { contents: entry.code, resolveDir: pkg("core"), loader: "js" },
    bundle: true,
    minify: true,
    format: "esm",
    platform: "neutral",
    target: "es2022",
    conditions: ["workerd", "worker", "browser"],
    mainFields: ["browser", "module", "main"],
    write: false,
    metafile: true,
    external: ["@upstash/redis", "cloudflare:workers", "@vercel/functions", "hono", "hono/*"],
    alias: {
      "@edgelock/core/lock-polling": pkg("core/src/lock-polling-entry.ts"),
      "@edgelock/core/lock": pkg("core/src/lock-entry.ts"),
      "@edgelock/core/options": pkg("core/src/options-entry.ts"),
      "@edgelock/core/hand-over": pkg("core/src/hand-over-entry.ts"),
      "@edgelock/core": pkg("core/src/index.ts"),
      "@edgelock/cloudflare": pkg("cloudflare/src/index.ts"),
      "@edgelock/vercel": pkg("vercel/src/index.ts"),
      "@edgelock/hono": pkg("hono/src/index.ts"),
      "@edgelock/redis-cluster-routing": pkg("redis-cluster-routing/src/index.ts"),
    },
    logLevel: "silent",
  });
  const code = result.outputFiles[0]!.contents;
  const inputs = Object.entries(Object.values(result.metafile.outputs)[0]!.inputs);
  const groups = new Map<string, number>();
  for (const [file, { bytesInOutput }] of inputs) {
    const module = moduleOf(file);
    groups.set(module, (groups.get(module) ?? 0) + bytesInOutput);
  }
  return {
    entry: entry.name,
    minified: code.length,
    gzipped: gzipSync(code, { level: 9 }).length,
    files: inputs
      .filter(([, { bytesInOutput }]) => bytesInOutput > 0)
      .map(([file]) => file.replace(/^.*packages\//, "")),
    modules: [...groups]
      .map(([module, minified]) => ({ module, minified }))
      .filter((m) => m.minified > 0)
      .sort((a, b) => b.minified - a.minified),
  };
}

/** `packages/core/src/lock/acquire.ts` → `core/lock`; the generated Lua apart. */
function moduleOf(file: string): string {
  const m = /packages\/([^/]+)\/src\/(.*)$/.exec(file);
  if (!m) return file === "<stdin>" ? "Worker code" : file;
  const [, pkgName, rest] = m as unknown as [string, string, string];
  if (rest.endsWith(".generated.ts")) return `${pkgName}: Lua`;
  const folder = rest.includes("/") ? rest.slice(0, rest.indexOf("/")) : "(top)";
  return `${pkgName}/${folder}`;
}
