import { execFile } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";

const root = dirname(dirname(fileURLToPath(import.meta.url)));

// What Vercel's build does to this function, checked offline: a type-check, and a bundle for
// each runtime (Node.js, and Edge, which has no Node built-ins).
describe("examples/vercel-function build", () => {
  it("type-checks", async () => {
    await promisify(execFile)(
      join(root, "node_modules", ".bin", "tsc"),
      ["-p", "tsconfig.app.json", "--noEmit"],
      { cwd: root },
    );
  }, 60_000);

  for (const [runtime, platform] of [
    ["node", "node"],
    ["edge", "browser"],
  ] as const) {
    it(`bundles for the ${runtime} runtime`, async () => {
      const result = await build({
        entryPoints: [join(root, "api", "increment.ts")],
        bundle: true,
        write: false,
        format: "esm",
        platform,
        target: "es2022",
        conditions: runtime === "edge" ? ["edge-light", "worker", "browser"] : [],
        metafile: true,
        logLevel: "silent",
      });
      const bytes = result.outputFiles[0]!.contents.byteLength;
      expect(result.errors).toEqual([]);
      expect(Object.keys(result.metafile.inputs).some((i) => i.startsWith("node:"))).toBe(false);
      console.info(`[vercel example] ${runtime} bundle: ${(bytes / 1024).toFixed(1)} KiB`);
    });
  }
});
