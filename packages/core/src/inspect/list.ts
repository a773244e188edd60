import type { ClientContext } from "../client-context.ts";
import { BackendError } from "../errors.ts";
import { KEY_SCHEMA_VERSION } from "../keys.ts";
import { readCommand } from "./command.ts";
import { escapeGlob } from "./glob.ts";
import type { ListEntry, ListPage } from "./types.ts";

export interface ListParams {
  readonly cursor: string;
  readonly count: number;
  readonly match: RegExp;
  readonly scans: number;
}

/**
 * One page of names: SCAN over `prefix:v1:*` (bounded: at most `scans` SCAN calls), each key
 * mapped to its name and kind, names filtered by `match`, duplicates within the page dropped.
 * Keys that outlive a primitive's state (fence counters, statistics, operation records) are not
 * names: a released lock is gone from the list even while its fence counter is kept.
 */
export async function listPage(
  ctx: ClientContext,
  parse: (key: string) => ListEntry | null,
  p: ListParams,
  signal?: AbortSignal,
): Promise<ListPage> {
  const pattern = `${escapeGlob(ctx.prefix)}:${KEY_SCHEMA_VERSION}:*`;
  // each name has a few keys, and operation records outnumber them under load
  const hint = Math.min(1_000, Math.max(100, p.count * 4));
  const seen = new Set<string>();
  const entries: ListEntry[] = [];
  let cursor = p.cursor;
  for (let scan = 0; scan < p.scans; scan++) {
    const [next, keys] = decodeScan(
      await readCommand(ctx, ["SCAN", cursor, "MATCH", pattern, "COUNT", hint], signal),
    );
    cursor = next;
    for (const key of keys) {
      const entry = parse(key);
      const id = entry && `${entry.kind}\u0000${entry.name}`;
      if (!entry || !id || seen.has(id) || !p.match.test(entry.name)) continue;
      seen.add(id);
      entries.push(entry);
    }
    if (cursor === "0" || entries.length >= p.count) break;
  }
  return { entries, next: cursor === "0" ? null : cursor };
}

function decodeScan(reply: unknown): [string, string[]] {
  if (!Array.isArray(reply) || reply.length !== 2 || !Array.isArray(reply[1])) {
    throw new BackendError(`SCAN: unexpected reply ${JSON.stringify(reply)}`);
  }
  return [String(reply[0]), (reply[1] as unknown[]).map(String)];
}
