import { defineConfig } from "tsup";

export default defineConfig({
  entry: ["src/index.ts", "src/lock-entry.ts", "src/serialized-hold-entry.ts"],
  format: ["esm"],
  dts: true,
  clean: true,
  target: "es2022",
  sourcemap: true,
  // The private cluster routing table is bundled: the published core keeps zero dependencies.
  noExternal: ["@edgelock/redis-cluster-routing"],
});
