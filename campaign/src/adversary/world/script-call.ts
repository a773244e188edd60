import { createHash } from "node:crypto";
import { SCRIPT_SHAS } from "../../world/script-names.ts";

const bySha = new Map([...SCRIPT_SHAS].map(([name, sha]) => [sha, name]));

/** What one EVALSHA/EVAL request is: the script's name, its keys, and its operation id if any. */
export interface ScriptCall {
  readonly script: string;
  readonly keys: readonly string[];
  readonly opId: string | null;
  /** The first argument (an owner, a permit or waiter id, ...), when there is one. */
  readonly subject: string | null;
  /**
   * The latest server ms at which this copy may apply (the protocol prologue's deadline slot,
   * fifth from the end of ARGV), for a call that carries an operation id; null otherwise.
   */
  readonly deadline: number | null;
}

export function parseScriptCall(args: readonly (string | number)[]): ScriptCall | null {
  const command = String(args[0]).toUpperCase();
  if (command !== "EVALSHA" && command !== "EVAL") return null;
  const body = String(args[1]);
  const sha = command === "EVALSHA" ? body : createHash("sha1").update(body).digest("hex");
  const keys = args.slice(3, 3 + Number(args[2])).map(String);
  const first = args[3 + keys.length];
  const opKey = keys.find((key) => key.includes(":op:"));
  return {
    script: bySha.get(sha) ?? `unknown:${sha.slice(0, 8)}`,
    keys,
    opId: opKey === undefined ? null : opKey.slice(opKey.lastIndexOf(":op:") + 4),
    subject: first === undefined ? null : String(first),
    deadline: opKey === undefined ? null : deadlineSlot(args),
  };
}

/** ARGV[#ARGV - 4] (protocol-prologue.lua): the last five slots are the engine's. */
function deadlineSlot(args: readonly (string | number)[]): number | null {
  const value = Number(args[args.length - 5]);
  return Number.isFinite(value) ? value : null;
}
