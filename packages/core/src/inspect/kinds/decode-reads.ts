import type { HashRead, ScoresRead, StringRead, ZsetRead } from "../reads.ts";
import type { Holder, Waiter } from "../types.ts";
import type { View } from "./kind-inspection.ts";

/**
 * The holder of a Lock-layout hash (`o` owner, `c` count, `f` fence, `g` = 1 while a direct grant
 * is unclaimed), as the Lock, the fair lock and the read-write lock's writer keep it.
 */
export function lockHolder(hash: HashRead, mode: Holder["mode"], view: View): Holder[] {
  const owner = hash.fields.get("o");
  if (hash.pttl === -2 || owner === undefined) return [];
  return [
    {
      owner: view.owner(owner),
      count: toInt(hash.fields.get("c"), 1),
      remainingMs: hash.pttl,
      fence: toFence(hash.fields.get("f")),
      mode,
      claimed: hash.fields.get("g") !== "1",
    },
  ];
}

/**
 * Live waiters of a FIFO queue (member → arrival) with their declared poll deadlines (member →
 * server ms). Waiters past their deadline are left out: the next grant drops them unserved.
 * `parse` splits a member into its owner and the permits it asks for (semaphores).
 */
export function queueWaiters(
  queue: ZsetRead,
  deadlines: ScoresRead,
  now: number,
  view: View,
  parse: (member: string) => { owner: string; permits: number } = (member) => ({
    owner: member,
    permits: 1,
  }),
): Waiter[] {
  const waiters: Waiter[] = [];
  queue.entries.forEach((entry, i) => {
    const deadline = deadlines.scores[i];
    if (deadline === null || deadline === undefined || deadline < now) return;
    const { owner, permits } = parse(entry.member);
    waiters.push({
      owner: view.owner(owner),
      position: waiters.length + 1,
      deadlineMs: deadline - now,
      permits,
    });
  });
  return waiters;
}

/** A semaphore queue member is `permits:waiterId`. */
export function semaphoreMember(member: string): { owner: string; permits: number } {
  const colon = member.indexOf(":");
  return { owner: member.slice(colon + 1), permits: toInt(member.slice(0, colon), 1) };
}

/** The fence counter's value: the last token issued (`null` when none is kept). */
export function lastFence(read: StringRead): number | null {
  return read.pttl === -2 ? null : toFence(read.value ?? undefined);
}

/** More members than were returned. */
export function isTruncated(
  ...reads: readonly { card: number; entries: readonly unknown[] }[]
): boolean {
  return reads.some((r) => r.card > r.entries.length);
}

export function toFence(value: string | undefined): number | null {
  const n = Number(value);
  return value === undefined || !Number.isFinite(n) || n <= 0 ? null : n;
}

export function toInt(value: string | null | undefined, fallback: number): number {
  const n = Number(value);
  return value === null || value === undefined || !Number.isFinite(n) ? fallback : Math.trunc(n);
}
