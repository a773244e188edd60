import { decodeTuple } from "../engine/decode.ts";
import { quarantineHint } from "../lock/codec.ts";
import type { ServerHint } from "../wait/wait-loop.ts";
import type { PermitSemaphoreStatus } from "./types.ts";

export type PermitAcquireReply =
  | { readonly status: "granted"; readonly fence: number; readonly leaseMs: number }
  | { readonly status: "busy"; readonly hint: ServerHint }
  | { readonly status: "abandoned" };

export function decodeAcquire(reply: unknown): PermitAcquireReply {
  const [status, fence, leaseMs, nextExpiryMs, position] = decodeTuple(
    "permit acquire",
    reply,
    6,
  ) as [number, number, number, number, number, number];
  if (status === 1) return { status: "granted", fence, leaseMs };
  if (status === -1) return { status: "abandoned" };
  if (status === -3) return { status: "busy", hint: quarantineHint(nextExpiryMs, position) };
  // The earliest permit expiry is when a permit frees up at the latest: never sleep past it.
  return {
    status: "busy",
    hint: { remainingLeaseMs: nextExpiryMs, position, meanHoldMs: 0, holdAgeMs: 0 },
  };
}

export function decodeChange(
  operation: string,
  reply: unknown,
): { applied: boolean; available: number; total: number } {
  const [status, available, total] = decodeTuple(operation, reply, 3) as [number, number, number];
  return { applied: status === 1, available, total };
}

export function decodeStatus(reply: unknown): PermitSemaphoreStatus {
  const [set, available, total, live, waiters] = decodeTuple("permit inspect", reply, 5) as [
    number,
    number,
    number,
    number,
    number,
  ];
  return { set: set === 1, available, total, live, waiters };
}
