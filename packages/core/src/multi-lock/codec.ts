import { decodeTuple } from "../engine/decode.ts";
import { quarantineHint } from "../lock/codec.ts";
import type { ServerHint } from "../wait/wait-loop.ts";

/** What one group of names (one slot) answered to an acquire: the Lock's answer, per name. */
export type GroupAcquireReply =
  | {
      readonly status: "granted";
      readonly fences: readonly number[];
      readonly reentered: readonly boolean[];
      readonly pttl: number;
    }
  | { readonly status: "busy"; readonly hint: ServerHint }
  | { readonly status: "abandoned" };

export function busyHint(remainingLeaseMs: number): ServerHint {
  return {
    remainingLeaseMs: Math.max(remainingLeaseMs, 0),
    position: 0,
    meanHoldMs: 0,
    holdAgeMs: 0,
  };
}

export function decodeMultiAcquire(reply: unknown, n: number): GroupAcquireReply {
  const t = decodeTuple("multi-lock acquire", reply, 2 + 2 * n);
  const [status, pttl] = t as [number, number];
  if (status === -1) return { status: "abandoned" };
  if (status === -3) return { status: "busy", hint: quarantineHint(pttl) };
  if (status !== 1) return { status: "busy", hint: busyHint(pttl) };
  return {
    status: "granted",
    pttl,
    reentered: t.slice(2, 2 + n).map((kind) => kind === 2),
    fences: t.slice(2 + n, 2 + 2 * n),
  };
}

export function decodeMultiRelease(
  reply: unknown,
  n: number,
): { released: boolean[]; remaining: number[] } {
  const t = decodeTuple("multi-lock release", reply, 2 * n);
  return { released: t.slice(0, n).map((s) => s === 1), remaining: t.slice(n) };
}

export function decodeMultiExtend(reply: unknown, n: number): boolean[] {
  return decodeTuple("multi-lock extend", reply, n).map((s) => s === 1);
}
