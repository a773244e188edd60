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
