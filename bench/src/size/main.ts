/**
 * `pnpm --filter @edgelock/bench size`: what edgelock adds to a Worker's bundle. Two entries —
 * one using only the Lock, one importing the whole core — bundled with esbuild (minified, ESM,
 * browser-neutral, `@upstash/redis` left out as the peer it is), then gzipped.
 */
import { gzipSync } from "node:zlib";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const here = dirname(fileURLToPath(import.meta.url));
const core = resolve(here, "../../../packages/core/src/index.ts");

const src = resolve(here, "../../../packages/core/src");

const ENTRIES = {
  // What a Worker using only the Lock bundles today: createClient's object names every primitive,
  // so a bundler keeps them all.
  "Lock via createClient": `import { createClient } from "@edgelock/core";
export async function handler(redis) {
  const lock = createClient({ redis }).lock("orders:42");
  await lock.withLock(async (held) => held.fence, { waitMs: 5000 });
}`,
  // The Lock-only entry: the same Lock, without the other primitives.
  "Lock via @edgelock/core/lock": `import { createLockClient } from "${src}/lock-entry.ts";
export async function handler(redis) {
  const lock = createLockClient({ redis }).lock("orders:42");
  await lock.withLock(async (held) => held.fence, { waitMs: 5000 });
}`,
  "whole core": `export * from "@edgelock/core";`,
} as const;

export interface SizeReport {
  readonly entry: string;
  readonly minified: number;
  readonly gzipped: number;
}

export async function measureSizes(): Promise<SizeReport[]> {
  const out: SizeReport[] = [];
  for (const [entry, contents] of Object.entries(ENTRIES)) {
    const result = await build({
      stdin: { contents, resolveDir: here, loader: "js" },
      bundle: true,
      minify: true,
      format: "esm",
      platform: "neutral",
      target: "es2022",
      write: false,
      external: ["@upstash/redis"],
      alias: { "@edgelock/core": core },
    });
    const code = result.outputFiles[0]!.contents;
    out.push({ entry, minified: code.length, gzipped: gzipSync(code, { level: 9 }).length });
  }
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const r of await measureSizes()) {
    console.log(
      `${r.entry.padEnd(22)} ${(r.minified / 1024).toFixed(1)} KB min, ${(r.gzipped / 1024).toFixed(2)} KB min+gz`,
    );
  }
}
