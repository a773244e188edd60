import type { testSeams } from "../../../../packages/core/src/test-seams.ts";
import { LUA_NAMES } from "../../../../packages/core/scripts/lua-names.generated.ts";
import { renameLua } from "../../../../packages/core/scripts/lua-names.ts";
import type { AdversaryConfig } from "../configs.ts";

const SHIPPED_NAMES = new Map(Object.entries(LUA_NAMES));

/** A script of the core under test, by `family/name` (as the scheduler names it). */
export type ScriptName = `${string}/${string}`;

/** A Lua text transform of one named script: the world sends the weakened body instead. */
export interface LuaWeakening {
  readonly kind: "lua";
  readonly script: ScriptName;
  /** The shipped (compact, wrapped) source → the weakened one; throws when it no longer matches. */
  transform(source: string): string;
}

/** A TypeScript test-only seam of the core (packages/core/src/test-seams.ts), set for the run. */
export interface SeamWeakening {
  readonly kind: "seam";
  readonly seam: keyof typeof testSeams;
}

/**
 * One deliberate defect: a protocol rule (or a finding of issue 13) broken on one kind of
 * operation, with the smallest world that exercises it. The generic oracle must report it; no
 * oracle code knows about any mutation.
 */
export interface Mutation {
  readonly name: string;
  /** The finding of issue 13 it re-creates, if any. */
  readonly finding?: number;
  /** The protocol rule it breaks (docs/protocol.md), in a few words. */
  readonly rule: string;
  /** The kind of operation it weakens, e.g. "lock acquire". */
  readonly operation: string;
  readonly apply: LuaWeakening | SeamWeakening;
  /** The targeted world: only the primitives and faults this defect needs. */
  readonly config: AdversaryConfig;
  /** Seconds of workload per run (short: the file runs every mutation 20 times). */
  readonly seconds: number;
  /**
   * Why the checker does not yet reject this mutation in 19 of 20 runs (measured; the reason
   * found): it is then measured by `pnpm --filter @edgelock/campaign mutations`, not asserted.
   */
  readonly pending?: string;
}

/**
 * Replaces the one occurrence of `find` in `source` (a script's shipped, compact text). `find` and
 * `replacement` are written with the .lua files' names; they are renamed as the shipped Lua's
 * locals are (`LUA_NAMES`). Fails loudly when `find` is missing or ambiguous, so a mutation cannot
 * silently stop mutating after the script it weakens is edited.
 */
export function replaceOnce(
  source: string,
  readableFind: string,
  readableReplacement: string,
): string {
  const find = renameLua(readableFind, SHIPPED_NAMES);
  const replacement = renameLua(readableReplacement, SHIPPED_NAMES);
  const at = source.indexOf(find);
  if (at < 0) throw new Error(`mutation no longer matches its script: ${JSON.stringify(find)}`);
  if (source.indexOf(find, at + 1) >= 0)
    throw new Error(`mutation matches its script more than once: ${JSON.stringify(find)}`);
  return source.slice(0, at) + replacement + source.slice(at + find.length);
}
