import { kindOf, type KeepableHold } from "./keepable-hold.ts";

/**
 * Which hold a serialised hold is, whatever its lease version or expiry: the object's name is a
 * hash of it, and a request about another hold is refused with it. A Lock keeps the identity it
 * had before the other kinds were kept (prefix, name, owner, fence), so a keeper object already
 * holding a Lock's lease is still found. Every other kind starts with its kind (and read-write
 * side): a read and a write hold of one owner on one name, or a Lock and a FairLock of the same
 * name, are different holds.
 */
export function holdIdentity(hold: KeepableHold): string {
  const { kind, side } = kindOf(hold);
  if (kind === "lock") {
    const h = hold as { prefix: string; name: string; owner: string; fence: number };
    return JSON.stringify([h.prefix, h.name, h.owner, h.fence]);
  }
  if (hold.kind === "multi-lock")
    return JSON.stringify([kind, hold.prefix, hold.names, hold.owner, hold.fences]);
  if (hold.kind === "permit-expirable-semaphore")
    return JSON.stringify([kind, hold.prefix, hold.name, hold.id, hold.fence]);
  const h = hold as { prefix: string; name: string; owner: string; fence: number };
  return JSON.stringify([kind, side ?? null, h.prefix, h.name, h.owner, h.fence]);
}

/** The same hold: a forged or stale one must not steer another hold's keeper. */
export function sameHold(a: KeepableHold, b: KeepableHold): boolean {
  return holdIdentity(a) === holdIdentity(b);
}
