import { defineConfig } from "tsup";

export default defineConfig({
  entry: ["src/index.ts", "src/cli.ts"],
  format: ["esm"],
  dts: { entry: "src/index.ts" },
  clean: true,
  target: "node20",
  sourcemap: true,
  // The private cluster routing table (shared with the core) is bundled, never a dependency.
  noExternal: ["@edgelock/redis-cluster-routing"],
});
