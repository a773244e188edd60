import { defineConfig } from "tsup";

export default defineConfig({
  entry: {
    index: "src/index.ts",
    "lock-entry": "src/lock-entry.ts",
    "lock-polling-entry": "src/lock-polling-entry.ts",
    "serialized-hold-entry": "src/serialized-hold-entry.ts",
    "options-entry": "src/options-entry.ts",
    "hand-over-entry": "src/hand-over-entry.ts",
    // `#tcp-backends` (package.json `imports`): the TCP adapters, and the edge build without them.
    "tcp-backends": "src/backend/tcp-backends.ts",
    "tcp-backends.edge": "src/backend/tcp-backends.edge.ts",
  },
  // Resolved by whoever bundles or runs the package, under their runtime's conditions.
  external: ["#tcp-backends"],
  format: ["esm"],
  dts: true,
  clean: true,
  target: "es2022",
  sourcemap: true,
  // The private cluster routing table is bundled: the published core keeps zero dependencies.
  noExternal: ["@edgelock/redis-cluster-routing"],
});
