import { decodeTuple } from "../engine/decode.ts";
import type { ServerHint } from "../wait/wait-loop.ts";

export type AcquireReply =
  | { readonly status: "granted" | "reentered"; readonly fence: number; readonly count: number; readonly pttl: number }
  | { readonly status: "busy"; readonly hint: ServerHint }
  | { readonly status: "abandoned" };

export function decodeAcquire(reply: unknown): AcquireReply {
  const [status, fence, count, pttl, position, meanHoldMs, holdAgeMs] = decodeTuple("acquire", reply, 8) as [number, number, number, number, number, number, number];
  if (status === 1 || status === 2) return { status: status === 1 ? "granted" : "reentered", fence, count, pttl };
  if (status === -1) return { status: "abandoned" };
  return { status: "busy", hint: { remainingLeaseMs: Math.max(pttl, 0), position, meanHoldMs, holdAgeMs } };
}

export function decodeRelease(reply: unknown): { released: boolean; remaining: number } {
  const [status, remaining] = decodeTuple("release", reply, 2) as [number, number];
  return { released: status === 1, remaining };
}

export function decodeExtend(reply: unknown): { renewed: boolean } {
  const [status] = decodeTuple("extend", reply, 2) as [number, number];
  return { renewed: status === 1 };
}

export interface LockInfo {
  readonly locked: boolean;
  readonly mine: number;
  readonly pttl: number;
  readonly fence: number;
  readonly waiters: number;
  readonly count: number;
}

export function decodeInspect(reply: unknown): LockInfo {
  const [locked, mine, pttl, fence, waiters, count] = decodeTuple("inspect", reply, 6) as [number, number, number, number, number, number];
  return { locked: locked === 1, mine, pttl: Math.max(pttl, 0), fence, waiters, count };
}
