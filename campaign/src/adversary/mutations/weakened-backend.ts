import type { Backend } from "@edgelock/core";
import { createHash } from "node:crypto";
import * as engine from "../../../../packages/core/src/engine/scripts.generated.ts";
import * as latch from "../../../../packages/core/src/latch/scripts.generated.ts";
import * as lock from "../../../../packages/core/src/lock/scripts.generated.ts";
import * as permitSemaphore from "../../../../packages/core/src/permit-semaphore/scripts.generated.ts";
import * as semaphore from "../../../../packages/core/src/semaphore/scripts.generated.ts";
import type { LuaWeakening, ScriptName } from "./mutation.ts";

interface Source {
  readonly sha: string;
  readonly source: string;
}

const FAMILIES = { engine, latch, lock, "permit-semaphore": permitSemaphore, semaphore } as const;

/** The shipped script `family/name` (what the core sends). */
export function shippedScript(name: ScriptName): Source {
  const [family, script] = name.split("/") as [string, string];
  const module = FAMILIES[family as keyof typeof FAMILIES] as Record<string, unknown> | undefined;
  const found = Object.values(module ?? {}).find(
    (s): s is Source & { name: string } => (s as { name?: unknown }).name === script,
  );
  if (found === undefined) throw new Error(`no shipped script ${name}`);
  return found;
}

/** A weakened script: its shipped form and the body sent instead. */
export interface Substitution {
  readonly shipped: Source;
  readonly weakened: Source;
}

export function substitution(w: LuaWeakening): Substitution {
  const shipped = shippedScript(w.script);
  const source = w.transform(shipped.source);
  if (source === shipped.source) throw new Error(`mutation of ${w.script} changed nothing`);
  return { shipped, weakened: { source, sha: createHash("sha1").update(source).digest("hex") } };
}

/**
 * A `Backend` that sends the weakened script wherever the core sends the shipped one: EVALSHA
 * of its SHA carries the weakened SHA, and the NOSCRIPT fallback's EVAL carries the weakened
 * body (which loads it). The core's own scripts are untouched; only this world's requests change.
 * Wrapped inside the scheduler, so the execution log still names the script by what the core sent.
 */
export function weakenedBackend(inner: Backend, s: Substitution): Backend {
  return {
    kind: inner.kind,
    command: (args, signal) => {
      const command = String(args[0]).toUpperCase();
      if (command === "EVALSHA" && args[1] === s.shipped.sha)
        return inner.command(["EVALSHA", s.weakened.sha, ...args.slice(2)], signal);
      if (command === "EVAL" && args[1] === s.shipped.source)
        return inner.command(["EVAL", s.weakened.source, ...args.slice(2)], signal);
      return inner.command(args, signal);
    },
    ...(inner.subscribe ? { subscribe: inner.subscribe.bind(inner) } : {}),
  };
}
