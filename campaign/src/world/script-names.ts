import * as engine from "../../../packages/core/src/engine/scripts.generated.ts";
import * as fairLock from "../../../packages/core/src/fair-lock/scripts.generated.ts";
import * as latch from "../../../packages/core/src/latch/scripts.generated.ts";
import * as lock from "../../../packages/core/src/lock/scripts.generated.ts";
import * as multiLock from "../../../packages/core/src/multi-lock/scripts.generated.ts";
import * as permitSemaphore from "../../../packages/core/src/permit-semaphore/scripts.generated.ts";
import * as readWriteLock from "../../../packages/core/src/read-write-lock/scripts.generated.ts";
import * as semaphore from "../../../packages/core/src/semaphore/scripts.generated.ts";

// The core's scripts, by SHA: to name what a failed request ran, and to aim faults at one kind of
// operation (a rule's `match` is a substring of the request body, which carries the SHA).
// Deep imports on purpose: the SHAs are generated, so they always match the scripts under test.

interface ScriptLike {
  readonly name: string;
  readonly sha: string;
}

const families = {
  engine,
  lock,
  "fair-lock": fairLock,
  "read-write-lock": readWriteLock,
  "multi-lock": multiLock,
  semaphore,
  "permit-semaphore": permitSemaphore,
  latch,
};

/** `family/script` → SHA, for every script of the primitives the campaign drives. */
export const SCRIPT_SHAS: ReadonlyMap<string, string> = new Map(
  Object.entries(families).flatMap(([family, module]) =>
    Object.values(module as Record<string, ScriptLike>).map(
      (s) => [`${family}/${s.name}`, s.sha] as const,
    ),
  ),
);

const bySha = new Map([...SCRIPT_SHAS].map(([name, sha]) => [sha, name]));

const used = new Set<string>();

/** What a request ran: the script's name for EVALSHA, else the command. Remembers it as used. */
export function commandName(args: readonly (string | number)[]): string {
  const command = String(args[0]).toUpperCase();
  if (command !== "EVALSHA") return command;
  const name = bySha.get(String(args[1]));
  if (name === undefined) return "EVALSHA ?";
  used.add(name);
  return name;
}

/** Scripts some client has run so far (`family/script` → SHA): worth aiming a fault at. */
export function usedScripts(): [string, string][] {
  return [...SCRIPT_SHAS].filter(([name]) => used.has(name));
}
