/**
 * `pnpm --filter @edgelock/bench size`: what edgelock adds to a Worker's bundle, per Worker of
 * `SIZE_ENTRIES` (esbuild as wrangler runs it, minified, `@upstash/redis` left out, gzip level 9)
 * and per module. `pnpm check:sizes` holds each Worker to its budget.
 */
import { dirname, resolve } from "node:path";
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
  for (const r of await measureSizes()) {
    console.log(
      `${r.entry.padEnd(48)} ${(r.minified / 1024).toFixed(1)} KB min, ${(r.gzipped / 1024).toFixed(2)} KB min+gz`,
    );
    for (const m of r.modules) console.log(`  ${m.module.padEnd(30)} ${m.minified} B min`);
  }
}
