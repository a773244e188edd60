import type { NodeRedisClient } from "@edgelock/testkit";
import type { LockState, ReaderState, ResourceState } from "../history.ts";

/**
 * Reads one resource's state and the server time in one script, on a connection of its own that
 * no fault touches. Run right after each script (the scheduler serializes them), it shows every
 * state the resource goes through, whatever the clients were told.
 */
const PROBE = `
local t = redis.call('TIME')
if ARGV[1] == 'lock' then -- the Lock's hash (also a FairLock's)
  local h = redis.call('HMGET', KEYS[1], 'o', 'c', 'f', 'g')
  return {t[1], t[2], h[1] or '', h[2] or '0', h[3] or '0', h[4] or '', tostring(redis.call('PEXPIRETIME', KEYS[1]))}
end
if ARGV[1] == 'rwlock' then
  local h = redis.call('HMGET', KEYS[1], 'o', 'c', 'f', 'g')
  local out = {t[1], t[2], h[1] or '', h[2] or '0', h[3] or '0', h[4] or '', tostring(redis.call('PEXPIRETIME', KEYS[1]))}
  local z = redis.call('ZRANGE', KEYS[2], 0, -1, 'WITHSCORES')
  for i = 1, #z, 2 do
    local r = redis.call('HMGET', KEYS[3], 'c' .. z[i], 'f' .. z[i])
    out[#out + 1] = z[i]
    out[#out + 1] = r[1] or '0'
    out[#out + 1] = r[2] or '0'
    out[#out + 1] = z[i + 1]
  end
  return out
end
if ARGV[1] == 'permit-semaphore' then
  local out = {t[1], t[2], redis.call('HGET', KEYS[1], 't') or '0'}
  for _, m in ipairs(redis.call('ZRANGE', KEYS[2], 0, -1, 'WITHSCORES')) do out[#out + 1] = m end
  return out
end
if ARGV[1] == 'latch' then
  return {t[1], t[2], redis.call('HGET', KEYS[1], 'c') or '0'}
end
local h = redis.call('HMGET', KEYS[1], 'a', 't')
local reserved = 0
for _, m in ipairs(redis.call('ZRANGE', KEYS[2], 0, -1)) do
  reserved = reserved + tonumber(string.match(m, '^(%d+):'))
end
return {t[1], t[2], h[1] or '0', h[2] or '0', tostring(reserved)}
`;

export type ResourceKind = ResourceState["kind"];

/** A resource: its main key (the one the oracle names it by) and its kind. */
export interface ResourceRef {
  readonly key: string;
  readonly kind: ResourceKind;
}

/** Key endings of each resource's own keys, and the ending of its main key. */
const PARTS: readonly { ends: readonly string[]; main: string; kind: ResourceKind }[] = [
  { ends: [":rw:lock", ":rw:readers", ":rw:rh"], main: ":rw:lock", kind: "rwlock" },
  { ends: [":pes", ":pes:p", ":pes:v"], main: ":pes", kind: "permit-semaphore" },
  { ends: [":latch"], main: ":latch", kind: "latch" },
  { ends: [":sem"], main: ":sem", kind: "semaphore" },
  // The Lock's and the FairLock's (`…:fair:lock`) hash; a multi-lock names several.
  { ends: [":lock"], main: ":lock", kind: "lock" },
];

/** Which resource a key belongs to (a resource's state keys; not its queues, fences or records). */
export function resourceOfKey(key: string): ResourceRef | null {
  for (const part of PARTS)
    for (const end of part.ends)
      if (key.endsWith(end))
        return { key: key.slice(0, key.length - end.length) + part.main, kind: part.kind };
  return null;
}

/** Every resource a script call's keys touch, once each, in key order. */
export function resourcesOf(keys: readonly string[]): ResourceRef[] {
  const out: ResourceRef[] = [];
  for (const key of keys) {
    const ref = resourceOfKey(key);
    if (ref !== null && !out.some((r) => r.key === ref.key)) out.push(ref);
  }
  return out;
}

/**
 * The resource an engine-level script (settle) is about, from its operation-record key
 * (`<base>:op:<id>`, one layout for every primitive): the resource at `<base>` the run registered
 * (`bases`: its fair locks, read-write locks, permit semaphores, latches), a semaphore of
 * `semaphoreBases`, or else the lock at `<base>`.
 */
export function resourceOfRecord(
  key: string,
  semaphoreBases: ReadonlySet<string>,
  bases: ReadonlyMap<string, ResourceRef> = new Map(),
): ResourceRef | null {
  const at = key.lastIndexOf(":op:");
  if (at < 0) return null;
  const base = key.slice(0, at);
  const known = bases.get(base);
  if (known) return known;
  if (semaphoreBases.has(base)) return { key: `${base}:sem`, kind: "semaphore" };
  return { key: `${base}:lock`, kind: "lock" };
}

export async function probe(
  redis: NodeRedisClient,
  key: string,
  kind: ResourceKind,
): Promise<{ serverMs: number; state: ResourceState }> {
  const raw = (await redis.eval(PROBE, {
    keys: probeKeys(key, kind),
    arguments: [kind],
  })) as string[];
  const n = raw.map((part) => Number(part));
  const serverMs = n[0]! * 1000 + n[1]! / 1000;
  switch (kind) {
    case "semaphore":
      return { serverMs, state: { kind, available: n[2]!, total: n[3]!, reserved: n[4]! } };
    case "lock":
      return { serverMs, state: lockState(raw, n) };
    case "rwlock": {
      const readers: Record<string, ReaderState> = {};
      for (let i = 7; i + 3 < raw.length; i += 4)
        readers[raw[i]!] = { count: n[i + 1]!, fence: n[i + 2]!, expiresAt: n[i + 3]! };
      return { serverMs, state: { kind, writer: lockState(raw, n), readers } };
    }
    case "permit-semaphore": {
      const permits: Record<string, number> = {};
      for (let i = 3; i + 1 < raw.length; i += 2) permits[raw[i]!] = n[i + 1]!;
      return { serverMs, state: { kind, total: n[2]!, permits } };
    }
    case "latch":
      return { serverMs, state: { kind, count: n[2]! } };
  }
}

function probeKeys(key: string, kind: ResourceKind): string[] {
  switch (kind) {
    case "semaphore":
      return [key, `${key}:g`];
    case "rwlock": {
      const base = key.slice(0, -":lock".length);
      return [key, `${base}:readers`, `${base}:rh`];
    }
    case "permit-semaphore":
      return [key, `${key}:p`];
    default:
      return [key];
  }
}

/**
 * A lock hash read by the probe's first seven fields. Its lease end is the key's absolute expiry
 * (`PEXPIRETIME`), not the server time plus `PTTL`: that sum read one untouched lease up to 4 ms
 * apart from one probe to the next (PTTL whole ms against the script's start time), more than the
 * oracle's 2 ms lease tolerance.
 */
function lockState(raw: readonly string[], n: readonly number[]): LockState {
  const expiry = n[6]!;
  const owner = raw[2] === "" ? null : raw[2]!;
  return {
    kind: "lock",
    owner,
    count: n[3]!,
    fence: n[4]!,
    reserved: raw[5] === "1",
    // -1: no expiry; -2: no key (then no owner either).
    expiresAt: owner === null ? null : expiry >= 0 ? expiry : NO_EXPIRY,
  };
}

/** A key without a TTL (kept as a finite number so histories stay plain JSON). */
export const NO_EXPIRY = 8.64e15;
