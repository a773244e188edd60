import type { ReplyOf } from "../engine/manifest.ts";
import { quarantineHint } from "../lock/codec.ts";
import type { ServerHint } from "../wait/wait-loop.ts";
import type { acquireScript } from "./scripts.generated.ts";

export type SemaphoreAcquireReply =
  | { readonly status: "granted"; readonly available: number }
  | { readonly status: "busy"; readonly hint: ServerHint };

export function decodeAcquire(
  reply: ReplyOf<typeof acquireScript>,
  serverMs: number,
): SemaphoreAcquireReply {
  const { status, available, position } = reply;
  if (status === 1) return { status: "granted", available };
  // -3: the restart quarantine refused, and the second slot is what is left of it
  if (status === -3) return { status: "busy", hint: quarantineHint(available, position) };
  // Permits have no lease, so there is no expiry to wake up for: the strategy alone paces polls.
  // `serverMs` tells a pushed grant made after this answer from a stale one.
  return {
    status: "busy",
    hint: { remainingLeaseMs: 0, position, meanHoldMs: 0, holdAgeMs: 0, serverMs },
  };
}

/** Answer of release / addPermits / trySetPermits: whether it applied, and the counts after. */
export interface PermitsChange {
  readonly applied: boolean;
  readonly available: number;
  readonly total: number;
}
