/** A Lua script known at build time: its SHA1 is computed by scripts/gen-scripts.ts. */
export interface Script {
  readonly name: string;
  readonly sha: string;
  readonly source: string;
}
