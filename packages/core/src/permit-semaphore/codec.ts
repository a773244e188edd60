import type { ReplyOf } from "../engine/manifest.ts";
import { quarantineHint } from "../lock/codec.ts";
import type { ServerHint } from "../wait/wait-loop.ts";
import type { acquireScript } from "./scripts.generated.ts";

export type PermitAcquireReply =
  | { readonly status: "granted"; readonly fence: number; readonly leaseMs: number }
  | { readonly status: "busy"; readonly hint: ServerHint };

export function decodeAcquire(
  reply: ReplyOf<typeof acquireScript>,
  serverMs: number,
): PermitAcquireReply {
  const { status, fence, leaseMs, nextExpiryMs, position } = reply;
  if (status === 1) return { status: "granted", fence, leaseMs };
  if (status === -3) return { status: "busy", hint: quarantineHint(nextExpiryMs, position) };
  // The earliest permit expiry is when a permit frees up at the latest: never sleep past it.
  return {
    status: "busy",
    hint: { remainingLeaseMs: nextExpiryMs, position, meanHoldMs: 0, holdAgeMs: 0, serverMs },
  };
}
