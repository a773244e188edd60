/**
 * The only place keys are built. Layout: `prefix:v1:{name}:part`. The version lets a changed layout
 * run beside the old one during a gradual deploy; the `{name}` hash tag puts every key of one
 * primitive in one cluster slot, so no script raises CROSSSLOT.
 */
export const KEY_SCHEMA_VERSION = "v1";
export const DEFAULT_PREFIX = "edgelock";

export function keyBase(prefix: string, name: string): string {
  // A name that carries its own `{tag}` keeps it, so callers can co-locate several names
  // (e.g. for a multi-lock in one slot). Braces are otherwise escaped away from the tag.
  return `${prefix}:${KEY_SCHEMA_VERSION}:${hashTag(name)}`;
}

export function hashTag(name: string): string {
  const open = name.indexOf("{");
  const close = open >= 0 ? name.indexOf("}", open + 1) : -1;
  if (open >= 0 && close > open + 1) return `${name.slice(0, open)}{${name.slice(open + 1, close)}}${name.slice(close + 1)}`;
  return `{${name}}`;
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
    queue: `${base}:pes:q`,
    queueDeadlines: `${base}:pes:qd`,
    fence: `${base}:pes:fence`,
    opPrefix: `${base}:pes:op:`,
    channelPrefix: `${base}:pes:w:`,
  } as const;
}

export type PermitSemaphoreKeys = ReturnType<typeof permitSemaphoreKeys>;

/** Keys of one count-down latch; `channel` carries a message when the count reaches zero. */
export function latchKeys(prefix: string, name: string) {
  const base = keyBase(prefix, name);
  return {
    latch: `${base}:latch`,
    opPrefix: `${base}:latch:op:`,
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
  return tagged.slice(tagged.indexOf("{") + 1, tagged.indexOf("}"));
}

/** Keys of one quorum lock on one of its databases (each database is independent). */
export function quorumKeys(prefix: string, name: string) {
  const base = keyBase(prefix, name);
  return {
    lock: `${base}:qlock`,
    fence: `${base}:qfence`,
    opPrefix: `${base}:qop:`,
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
