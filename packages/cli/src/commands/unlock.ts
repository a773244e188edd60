import type { InspectKind, Inspector } from "@edgelock/core";
import type { Flags } from "../args.ts";
import { CliError } from "../cli-error.ts";

/** `edgelock unlock <name> --force`: deletes every hold on the name; nothing held is a failure (a typo?). */
export async function unlockCommand(
  inspector: Inspector,
  name: string,
  flags: Flags,
): Promise<string> {
  const unlocked = await inspector.forceUnlock(
    name,
    flags.kind === undefined ? {} : { kind: flags.kind as InspectKind },
  );
  if (flags.json) {
    if (!unlocked) throw new CliError(JSON.stringify({ name, unlocked }), 1);
    return JSON.stringify({ name, unlocked });
  }
  if (!unlocked)
    throw new CliError(
      `nothing held under "${name}" (prefix "${inspector.prefix}"): nothing to unlock`,
      1,
    );
  return `force-unlocked "${name}": every hold deleted; the first waiter, if any, was served`;
}
