import type { InspectKind, Inspector } from "@edgelock/core";

/**
 * One holder's lease on the server, where no handle call reads it (a permit's, one reader's): the
 * inspector lists every holder of `name` with its owner id and lease, in one request. 0 when the
 * server holds nothing for `owner`: its lease is gone.
 */
export async function inspectedLeaseMs(
  inspector: Inspector,
  name: string,
  kind: InspectKind,
  owner: string,
  mode: "read" | "permit",
): Promise<number> {
  const found = await inspector.describe(name, { kind, revealOwners: true, limit: 1_000 });
  return found?.holders.find((h) => h.owner === owner && h.mode === mode)?.remainingMs ?? 0;
}
