/**
 * The only place keys are built. Layout: `prefix:v1:{name}:part` (names with braces: see
 * `hashTag`). The version lets a changed layout run beside the old one during a gradual deploy;
 * the hash tag puts every key of one primitive in one cluster slot, so no script raises CROSSSLOT.
 */
import { CLUSTER_SLOTS, slotOf, tagForSlot } from "./cluster-slot.ts";

export const KEY_SCHEMA_VERSION = "v1";
export const DEFAULT_PREFIX = "edgelock";

export function keyBase(prefix: string, name: string): string {
  return `${prefix}:${KEY_SCHEMA_VERSION}:${hashTag(name)}`;
}

/**
 * The part of every key that stands for `name`; injective, so two distinct names never share a
 * key. A name without braces is `{name}` (the usual case, readable in any tool). A name with
 * braces is `{tag}~escaped`: its own `{tag}` when it has one (callers co-locate names that way,
 * e.g. for a multi-lock in one slot), else the escaped name as the tag, then the whole name with
 * `%`, `:`, `{` and `}` percent-escaped. So the first `}` always closes the tag, the character
 * after it tells the two forms apart, and no name can forge the `:part` that follows: `a`, `{a}`
 * and `a}:fair:{b` each get keys of their own, and no lock's keys are a fair lock's or a semaphore's.
 */
export function hashTag(name: string): string {
  if (!/[{}]/.test(name)) return `{${name}}`;
  const escaped = escapeName(name);
  return `{${userTag(name) ?? escaped}}~${escaped}`;
}

/** Redis Cluster's rule: the text between the first `{` and the next `}`, when not empty. */
function userTag(name: string): string | undefined {
  const open = name.indexOf("{");
  const close = open >= 0 ? name.indexOf("}", open + 1) : -1;
  return close > open + 1 ? name.slice(open + 1, close) : undefined;
}

export function escapeName(name: string): string {
  return name.replace(
    /[%:{}]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`,
  );
}

export function unescapeName(escaped: string): string {
  return escaped.replace(/%([0-9A-F]{2})/g, (_, hex: string) =>
    String.fromCharCode(parseInt(hex, 16)),
  );
}

/** Keys of one reentrant lock. */
export function lockKeys(prefix: string, name: string) {
  const base = keyBase(prefix, name);
  return {
    lock: `${base}:lock`,
    fence: `${base}:fence`,
    queue: `${base}:q`,
    queueDeadlines: `${base}:qd`,
    stats: `${base}:stats`,
    opPrefix: `${base}:op:`,
    channelPrefix: `${base}:w:`,
  } as const;
}

export type LockKeys = ReturnType<typeof lockKeys>;

/**
 * Keys of one semaphore. The state hash holds the available (`a`) and configured total (`t`)
 * permits; waiters queue as `permits:waiterId` members so one member carries what it asks for.
 */
export function semaphoreKeys(prefix: string, name: string) {
  const base = keyBase(prefix, name);
  return {
    state: `${base}:sem`,
    queue: `${base}:sem:q`,
    queueDeadlines: `${base}:sem:qd`,
    grants: `${base}:sem:g`,
    opPrefix: `${base}:sem:op:`,
    channelPrefix: `${base}:sem:w:`,
  } as const;
}

export type SemaphoreKeys = ReturnType<typeof semaphoreKeys>;

/** Keys of one permit-expirable semaphore: the total in a hash, each permit's expiry in a zset. */
export function permitSemaphoreKeys(prefix: string, name: string) {
  const base = keyBase(prefix, name);
  return {
    state: `${base}:pes`,
    permits: `${base}:pes:p`,
    /** Each permit's lease version (permit id -> version; absent: 0). */
    versions: `${base}:pes:v`,
    queue: `${base}:pes:q`,
    queueDeadlines: `${base}:pes:qd`,
    fence: `${base}:pes:fence`,
    opPrefix: `${base}:pes:op:`,
    channelPrefix: `${base}:pes:w:`,
  } as const;
}

export type PermitSemaphoreKeys = ReturnType<typeof permitSemaphoreKeys>;

/**
 * Keys of one count-down latch; `channel` carries a message when the count reaches zero. Its
 * operation records are the engine's (`opRecordKey`: `…:op:<id>` beside the latch).
 */
export function latchKeys(prefix: string, name: string) {
  const base = keyBase(prefix, name);
  return {
    latch: `${base}:latch`,
    channel: `${base}:latch:open`,
  } as const;
}

export type LatchKeys = ReturnType<typeof latchKeys>;

/**
 * The cluster hash tag a name's keys carry, without braces. Names with the same tag share one
 * cluster slot, so one script may touch all of them (a multi-lock acquires such a group at once).
 */
export function slotTagOf(name: string): string {
  const tagged = hashTag(name);
  return tagged.slice(1, tagged.indexOf("}"));
}

/**
 * Keys of one quorum lock on one of its databases (each database is independent). Operation
 * records are the engine's (`opRecordKey`: `…:op:<id>` beside the lock); an acquisition's id is
 * its token.
 */
export function quorumKeys(prefix: string, name: string) {
  const base = keyBase(prefix, name);
  return {
    lock: `${base}:qlock`,
    fence: `${base}:qfence`,
  } as const;
}

export type QuorumKeys = ReturnType<typeof quorumKeys>;

/**
 * Keys of one fair lock: the Lock's layout (so the Lock's holds and leases serve it) under its
 * own `fair` part, so a fair lock and a lock of the same name never share state or fences.
 */
export function fairLockKeys(prefix: string, name: string) {
  const base = keyBase(prefix, name);
  return {
    lock: `${base}:fair:lock`,
    fence: `${base}:fair:fence`,
    queue: `${base}:fair:q`,
    queueDeadlines: `${base}:fair:qd`,
    stats: `${base}:fair:stats`,
    opPrefix: `${base}:fair:op:`,
    channelPrefix: `${base}:fair:w:`,
  } as const;
}

export type FairLockKeys = ReturnType<typeof fairLockKeys>;

/**
 * Keys of one read-write lock. `lock` is the writer's hash (the Lock's layout) and the queue holds
 * waiting writers; `readers` maps each reader to its lease expiry (server ms) and `readerHolds`
 * holds each reader's count (`c<owner>`) and fence (`f<owner>`).
 */
export function readWriteLockKeys(prefix: string, name: string) {
  const base = keyBase(prefix, name);
  return {
    lock: `${base}:rw:lock`,
    fence: `${base}:rw:fence`,
    queue: `${base}:rw:q`,
    queueDeadlines: `${base}:rw:qd`,
    stats: `${base}:rw:stats`,
    opPrefix: `${base}:rw:op:`,
    channelPrefix: `${base}:rw:w:`,
    readers: `${base}:rw:readers`,
    readerHolds: `${base}:rw:rh`,
  } as const;
}

export type ReadWriteLockKeys = ReturnType<typeof readWriteLockKeys>;

/**
 * The key base (`prefix:v1:{tag}…`) that `key`, a key of some primitive, starts with: what comes
 * before the first `:` after its hash tag (names' escaped parts never contain `:`).
 */
export function baseOfKey(key: string): string {
  const colon = key.indexOf(":", key.indexOf("}"));
  return colon < 0 ? key : key.slice(0, colon);
}

/**
 * An operation's record, beside the keys of the call that made it (same hash tag, so a script
 * never raises CROSSSLOT): the engine derives it from the call's first key.
 */
export function opRecordKey(firstKey: string, opId: string): string {
  return `${baseOfKey(firstKey)}:op:${opId}`;
}

/** The restart quarantine's sentinel for a call whose first key is `firstKey` (see `sentinelKey`). */
export function sentinelKeyFor(prefix: string, firstKey: string, scope: QuarantineScope): string {
  const head = `${prefix}:${KEY_SCHEMA_VERSION}:sentinel`;
  if (scope === "prefix") return head;
  const open = firstKey.indexOf("{");
  const tag = firstKey.slice(open + 1, firstKey.indexOf("}", open + 1));
  return `${head}:{${tagForSlot(slotOf(tag))}}`;
}

/** Where the restart quarantine keeps its sentinel: one per key prefix, or one per cluster slot. */
export type QuarantineScope = "prefix" | "slot";

/**
 * The restart quarantine's sentinel for the keys of `name` (see `common/quarantine.lua`). Both
 * forms lie outside every name's keys, which all continue with `{` after the version. "prefix":
 * one key for the whole prefix, for a single Redis (a script may touch any key). "slot": one key
 * per cluster slot, tagged to land in the slot of `name`, so a script on Redis Cluster may touch
 * it beside the name's own keys.
 */
export function sentinelKey(prefix: string, name: string, scope: QuarantineScope): string {
  const head = `${prefix}:${KEY_SCHEMA_VERSION}:sentinel`;
  return scope === "prefix" ? head : `${head}:{${tagForSlot(slotOf(slotTagOf(name)))}}`;
}

/** Every sentinel of a scope, for `client.initialize()`. */
export function allSentinelKeys(prefix: string, scope: QuarantineScope): string[] {
  const head = `${prefix}:${KEY_SCHEMA_VERSION}:sentinel`;
  if (scope === "prefix") return [head];
  return Array.from({ length: CLUSTER_SLOTS }, (_, slot) => `${head}:{${tagForSlot(slot)}}`);
}
