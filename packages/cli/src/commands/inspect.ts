import type { InspectKind, Inspector } from "@edgelock/core";
import type { Flags } from "../args.ts";
import { CliError } from "../cli-error.ts";
import { formatDescription, formatList } from "../format.ts";

/** `edgelock inspect [name]`: the overview, or one name in detail. */
export async function inspectCommand(
  inspector: Inspector,
  name: string | undefined,
  flags: Flags,
): Promise<string> {
  const revealOwners = flags.revealOwners;
  if (name === undefined) {
    const snapshot = await inspector.snapshot({
      revealOwners,
      ...(flags.match === undefined ? {} : { match: flags.match }),
      ...(flags.limit === undefined ? {} : { limit: flags.limit }),
    });
    if (flags.json) return JSON.stringify({ prefix: inspector.prefix, ...snapshot }, null, 2);
    const more = snapshot.truncated ? "\n(more names than shown: use --match or --limit)" : "";
    return formatList(snapshot.descriptions) + more;
  }
  const d = await inspector.describe(name, {
    revealOwners,
    ...(flags.kind === undefined ? {} : { kind: flags.kind as InspectKind }),
  });
  if (d === null)
    throw new CliError(
      `nothing lives under "${name}"${flags.kind ? ` as a ${flags.kind}` : ""} (prefix "${inspector.prefix}")`,
      1,
    );
  return flags.json ? JSON.stringify(d, null, 2) : formatDescription(d);
}
