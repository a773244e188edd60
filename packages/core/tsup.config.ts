import { defineConfig } from "tsup";

export default defineConfig({
  entry: ["src/index.ts", "src/lock-entry.ts", "src/cluster-entry.ts"],
  format: ["esm"],
  dts: true,
  clean: true,
  target: "es2022",
  sourcemap: true,
});
