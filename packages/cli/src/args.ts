import { parseArgs } from "node:util";
import { usageError } from "./cli-error.ts";

/** What the command line asked for, checked. */
export type Command =
  | { readonly command: "help" }
  | { readonly command: "version" }
  | { readonly command: "inspect"; readonly name?: string; readonly flags: Flags }
  | { readonly command: "unlock"; readonly name: string; readonly flags: Flags };

export interface Flags {
  readonly json: boolean;
  readonly prefix?: string;
  readonly kind?: string;
  readonly match?: string;
  readonly limit?: number;
  readonly revealOwners: boolean;
  readonly force: boolean;
}

const OPTIONS = {
  help: { type: "boolean", short: "h" },
  version: { type: "boolean" },
  json: { type: "boolean" },
  force: { type: "boolean" },
  "reveal-owners": { type: "boolean" },
  prefix: { type: "string" },
  kind: { type: "string" },
  match: { type: "string" },
  limit: { type: "string" },
} as const;

export function parseCommand(argv: readonly string[]): Command {
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    throw usageError(error instanceof Error ? error.message : String(error));
  }
  const { values: v, positionals } = parsed;
  if (v.help) return { command: "help" };
  if (v.version) return { command: "version" };
  const [command, name, ...extra] = positionals;
  if (extra.length > 0) throw usageError(`unexpected argument "${extra[0]}"`);
  const flags: Flags = {
    json: v.json ?? false,
    revealOwners: v["reveal-owners"] ?? false,
    force: v.force ?? false,
    ...(v.prefix === undefined ? {} : { prefix: v.prefix }),
    ...(v.kind === undefined ? {} : { kind: v.kind }),
    ...(v.match === undefined ? {} : { match: v.match }),
    ...(v.limit === undefined ? {} : { limit: positiveInt("--limit", v.limit) }),
  };
  switch (command) {
    case undefined:
      return { command: "help" };
    case "inspect":
      return name === undefined ? { command, flags } : { command, name, flags };
    case "unlock":
      if (name === undefined)
        throw usageError("unlock needs a name: edgelock unlock <name> --force");
      if (!flags.force)
        throw usageError(
          `refusing to force-unlock "${name}" without --force: its holder learns only at its next renewal`,
        );
      return { command, name, flags };
    default:
      throw usageError(`unknown command "${command}" (commands: inspect, unlock)`);
  }
}

function positiveInt(flag: string, text: string): number {
  const n = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(n) || n < 1)
    throw usageError(`${flag} must be a positive integer, got "${text}"`);
  return n;
}
