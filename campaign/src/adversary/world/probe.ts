import type { NodeRedisClient } from "@edgelock/testkit";
import type { ResourceState } from "../history.ts";

/**
 * Reads one resource's state and the server time in one script, on a connection of its own that
 * no fault touches. Run right after each script (the scheduler serializes them), it shows every
 * state the resource goes through, whatever the clients were told.
 */
const PROBE = `
local t = redis.call('TIME')
if ARGV[1] == 'lock' then
  local h = redis.call('HMGET', KEYS[1], 'o', 'c', 'f', 'g')
  return {t[1], t[2], h[1] or '', h[2] or '0', h[3] or '0', h[4] or '', tostring(redis.call('PTTL', KEYS[1]))}
end
local h = redis.call('HMGET', KEYS[1], 'a', 't')
local reserved = 0
for _, m in ipairs(redis.call('ZRANGE', KEYS[2], 0, -1)) do
  reserved = reserved + tonumber(string.match(m, '^(%d+):'))
end
return {t[1], t[2], h[1] or '0', h[2] or '0', tostring(reserved)}
`;

export type ResourceKind = "lock" | "semaphore";

/** Which resource a script call is about: its first key, when it is a lock hash or a semaphore's state. */
export function resourceOf(key: string): ResourceKind | null {
  if (key.endsWith(":lock")) return "lock";
  if (key.endsWith(":sem")) return "semaphore";
  return null;
}

/**
 * The resource an engine-level script (settle) is about, from its operation-record key
 * (`<base>:op:<id>`, one layout for every primitive): the resource at `<base>` whose kind the
 * run knows (`semaphoreBases`: bases of the run's semaphores; any other base is a lock's).
 */
export function resourceOfRecord(
  key: string,
  semaphoreBases: ReadonlySet<string>,
): { key: string; kind: ResourceKind } | null {
  const at = key.lastIndexOf(":op:");
  if (at < 0) return null;
  const base = key.slice(0, at);
  if (semaphoreBases.has(base)) return { key: `${base}:sem`, kind: "semaphore" };
  return { key: `${base}:lock`, kind: "lock" };
}

export async function probe(
  redis: NodeRedisClient,
  key: string,
  kind: ResourceKind,
): Promise<{ serverMs: number; state: ResourceState }> {
  const raw = (await redis.eval(PROBE, {
    keys: kind === "lock" ? [key] : [key, `${key}:g`],
    arguments: [kind],
  })) as string[];
  const n = raw.map((part) => Number(part));
  const serverMs = n[0]! * 1000 + n[1]! / 1000;
  if (kind === "semaphore")
    return {
      serverMs,
      state: { kind, available: n[2]!, total: n[3]!, reserved: n[4]! },
    };
  const pttl = n[6]!;
  const owner = raw[2] === "" ? null : raw[2]!;
  return {
    serverMs,
    state: {
      kind,
      owner,
      count: n[3]!,
      fence: n[4]!,
      reserved: raw[5] === "1",
      expiresAt: owner === null ? null : pttl >= 0 ? serverMs + pttl : NO_EXPIRY,
    },
  };
}

/** A key without a TTL (kept as a finite number so histories stay plain JSON). */
export const NO_EXPIRY = 8.64e15;
