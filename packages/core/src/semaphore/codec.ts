import { decodeTuple } from "../engine/decode.ts";
import { quarantineHint } from "../lock/codec.ts";
import type { ServerHint } from "../wait/wait-loop.ts";
import type { SemaphoreStatus } from "./types.ts";

export type SemaphoreAcquireReply =
  | { readonly status: "granted"; readonly available: number }
  | { readonly status: "busy"; readonly hint: ServerHint }
  | { readonly status: "abandoned" };

export function decodeAcquire(reply: unknown): SemaphoreAcquireReply {
  const [status, available, , position] = decodeTuple("semaphore acquire", reply, 5) as [
    number,
    number,
    number,
    number,
    number,
  ];
  if (status === 1) return { status: "granted", available };
  if (status === -1) return { status: "abandoned" };
  // -3: the restart quarantine refused, and the second slot is what is left of it
  if (status === -3) return { status: "busy", hint: quarantineHint(available, position) };
  // Permits have no lease, so there is no expiry to wake up for: the strategy alone paces polls.
  return { status: "busy", hint: { remainingLeaseMs: 0, position, meanHoldMs: 0, holdAgeMs: 0 } };
}

/** Answer of release / addPermits / trySetPermits: whether it applied, and the counts after. */
export interface PermitsChange {
  readonly applied: boolean;
  readonly available: number;
  readonly total: number;
}

export function decodeChange(operation: string, reply: unknown): PermitsChange {
  const [status, available, total] = decodeTuple(operation, reply, 3) as [number, number, number];
  return { applied: status === 1, available, total };
}

export function decodeStatus(reply: unknown): SemaphoreStatus {
  const [set, available, total, waiters] = decodeTuple("semaphore inspect", reply, 5) as [
    number,
    number,
    number,
    number,
    number,
  ];
  return { set: set === 1, available, total, waiters };
}
