// Development aid: which inputs make up the Lock-only bundle, largest first.
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const here = dirname(fileURLToPath(import.meta.url));
const src = resolve(here, "../../../packages/core/src");
const result = await build({
  stdin: {
    contents: `import { createLockClient } from "${src}/lock-entry.ts"; export const f = (redis) => createLockClient({ redis }).lock("x").acquire();`,
    resolveDir: here,
    loader: "js",
  },
  bundle: true,
  minify: true,
  format: "esm",
  platform: "neutral",
  write: false,
  metafile: true,
  external: ["@upstash/redis"],
  alias: { "@edgelock/core": resolve(here, "../../../packages/core/src/index.ts") },
});
const inputs = Object.entries(result.metafile.outputs)[0]![1].inputs;
for (const [file, { bytesInOutput }] of Object.entries(inputs)
  .sort((a, b) => b[1].bytesInOutput - a[1].bytesInOutput)
  .slice(0, 25)) {
  console.log(String(bytesInOutput).padStart(7), file.replace(/.*packages\//, ""));
}
