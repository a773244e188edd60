/**
 * `pnpm --filter @edgelock/bench size`: what edgelock adds to a Worker's bundle, per Worker of
 * `SIZE_ENTRIES` (esbuild as wrangler runs it, minified, `@upstash/redis` left out, gzip level 9)
 * and per module. `pnpm check:sizes` holds each Worker to its budget. With `--write`, rewrites
 * BENCHMARKS.md's bundle-size section only: sizes need no quiet machine, the timings do.
 */
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { SIZE_ENTRIES } from "./entries.ts";
import { measureEntry, type SizeMeasure } from "./measure.ts";

export interface SizeReport extends SizeMeasure {
  readonly budget: number;
  readonly goal: number;
}

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");

export async function measureSizes(): Promise<SizeReport[]> {
  const out: SizeReport[] = [];
  for (const entry of SIZE_ENTRIES)
    out.push({ ...(await measureEntry(entry, root)), budget: entry.budget, goal: entry.goal });
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const sizes = await measureSizes();
  if (process.argv.includes("--write")) {
    // Loaded only here: the report's module pulls in every scenario, which check:sizes needs not.
    const { writeSizeSection } = await import("./write-section.ts");
    writeSizeSection(join(root, "BENCHMARKS.md"), sizes);
    console.log("BENCHMARKS.md: bundle-size section rewritten (the other sections untouched)");
  }
  for (const r of sizes) {
    console.log(
      `${r.entry.padEnd(48)} ${(r.minified / 1024).toFixed(1)} KB min, ${(r.gzipped / 1024).toFixed(2)} KB min+gz`,
    );
    for (const m of r.modules) console.log(`  ${m.module.padEnd(30)} ${m.minified} B min`);
  }
}
