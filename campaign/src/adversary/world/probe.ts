import type { NodeRedisClient } from "@edgelock/testkit";
import type { LockState, QueuedWaiter, ReaderState, ResourceState } from "../history.ts";

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
if ARGV[1] == 'read-write-lock' then
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
-- A queue (KEYS[q], head first) with each waiter's declared poll deadline (KEYS[qd]), appended
-- to out after its length.
local function queue(out, q, qd)
  local ids = redis.call('ZRANGE', KEYS[q], 0, -1)
  out[#out + 1] = tostring(#ids)
  for _, id in ipairs(ids) do
    out[#out + 1] = id
    out[#out + 1] = redis.call('ZSCORE', KEYS[qd], id) or '0'
  end
end
if ARGV[1] == 'permit-expirable-semaphore' then
  local p = redis.call('ZRANGE', KEYS[2], 0, -1, 'WITHSCORES')
  local out = {t[1], t[2], redis.call('HGET', KEYS[1], 't') or '0', tostring(#p / 2)}
  for _, m in ipairs(p) do out[#out + 1] = m end
  queue(out, 3, 4)
  return out
end
if ARGV[1] == 'count-down-latch' then
  return {t[1], t[2], redis.call('HGET', KEYS[1], 'c') or '0'}
end
local h = redis.call('HMGET', KEYS[1], 'a', 't')
local reserved = 0
local g = redis.call('ZRANGE', KEYS[2], 0, -1, 'WITHSCORES')
for i = 1, #g, 2 do
  reserved = reserved + tonumber(string.match(g[i], '^(%d+):'))
end
local out = {t[1], t[2], h[1] or '0', h[2] or '0', tostring(reserved), tostring(#g / 2)}
for _, m in ipairs(g) do out[#out + 1] = m end
queue(out, 3, 4)
return out
`;

export type ResourceKind = ResourceState["kind"];

/** A resource: its main key (the one the oracle names it by) and its kind. */
export interface ResourceRef {
  readonly key: string;
  readonly kind: ResourceKind;
}

/** Key endings of each resource's own keys, and the ending of its main key. */
const PARTS: readonly { ends: readonly string[]; main: string; kind: ResourceKind }[] = [
  { ends: [":rw:lock", ":rw:readers", ":rw:rh"], main: ":rw:lock", kind: "read-write-lock" },
  { ends: [":pes", ":pes:p", ":pes:v"], main: ":pes", kind: "permit-expirable-semaphore" },
  { ends: [":latch"], main: ":latch", kind: "count-down-latch" },
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
  return decodeProbe(raw, kind);
}

/**
 * Reads several resources at one instant (one MULTI/EXEC): a script that touched several (a
 * multi-lock's locks) is shown as it left all of them. Read one round trip apart, a loaded
 * machine once let a 256 ms lease run out between the first lock's read and the second's, and
 * the second looked never granted.
 */
export async function probeAll(
  redis: NodeRedisClient,
  refs: readonly ResourceRef[],
): Promise<{ serverMs: number; state: ResourceState }[]> {
  if (refs.length === 1) return [await probe(redis, refs[0]!.key, refs[0]!.kind)];
  const multi = redis.multi();
  for (const { key, kind } of refs)
    multi.eval(PROBE, { keys: probeKeys(key, kind), arguments: [kind] });
  const raws = (await multi.exec()) as unknown as string[][];
  return raws.map((raw, i) => decodeProbe(raw, refs[i]!.kind));
}

function decodeProbe(
  raw: readonly string[],
  kind: ResourceKind,
): { serverMs: number; state: ResourceState } {
  const n = raw.map((part) => Number(part));
  const serverMs = n[0]! * 1000 + n[1]! / 1000;
  switch (kind) {
    case "semaphore": {
      // Members are `permits:waiterId`: the oracle names a waiter by its id.
      const grants: Record<string, number> = {};
      const count = n[5]!;
      for (let i = 6; i < 6 + 2 * count; i += 2) grants[waiterOf(raw[i]!)] = n[i + 1]!;
      const queue = queueAt(raw, n, 6 + 2 * count).map((q) => ({
        ...q,
        waiter: waiterOf(q.waiter),
      }));
      return {
        serverMs,
        state: { kind, available: n[2]!, total: n[3]!, reserved: n[4]!, grants, queue },
      };
    }
    case "lock":
      return { serverMs, state: lockState(raw, n) };
    case "read-write-lock": {
      const readers: Record<string, ReaderState> = {};
      for (let i = 7; i + 3 < raw.length; i += 4)
        readers[raw[i]!] = { count: n[i + 1]!, fence: n[i + 2]!, expiresAt: n[i + 3]! };
      return { serverMs, state: { kind, writer: lockState(raw, n), readers } };
    }
    case "permit-expirable-semaphore": {
      const permits: Record<string, number> = {};
      const count = n[3]!;
      for (let i = 4; i < 4 + 2 * count; i += 2) permits[raw[i]!] = n[i + 1]!;
      const queue = queueAt(raw, n, 4 + 2 * count);
      return { serverMs, state: { kind, total: n[2]!, permits, queue } };
    }
    case "count-down-latch":
      return { serverMs, state: { kind, count: n[2]! } };
  }
}

/** A queue the probe appended at `at`: its length, then each waiter and its poll deadline. */
function queueAt(raw: readonly string[], n: readonly number[], at: number): QueuedWaiter[] {
  const out: QueuedWaiter[] = [];
  for (let i = at + 1; i < at + 1 + 2 * n[at]!; i += 2)
    out.push({ waiter: raw[i]!, pollBy: n[i + 1]! });
  return out;
}

/** A semaphore's queue and grant members are `permits:waiterId`. */
const waiterOf = (member: string) => member.slice(member.indexOf(":") + 1);

function probeKeys(key: string, kind: ResourceKind): string[] {
  switch (kind) {
    case "semaphore":
      return [key, `${key}:g`, `${key}:q`, `${key}:qd`];
    case "read-write-lock": {
      const base = key.slice(0, -":lock".length);
      return [key, `${base}:readers`, `${base}:rh`];
    }
    case "permit-expirable-semaphore":
      return [key, `${key}:p`, `${key}:q`, `${key}:qd`];
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
