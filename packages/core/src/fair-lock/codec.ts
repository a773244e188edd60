import type { ReplyOf } from "../engine/manifest.ts";
import { quarantineHint, type AcquireReply } from "../lock/codec.ts";
import type { acquireScript } from "./scripts.generated.ts";

/**
 * The fair lock's acquire reply, by name; the read-write lock's acquire scripts answer the same
 * slots (status fence count pttl position meanHoldMs holdAgeMs version).
 */
export type QueuedAcquireReply = ReplyOf<typeof acquireScript>;

/** Decodes a fair-layout acquire reply (the engine took the server time off). */
export function decodeQueuedAcquire(r: QueuedAcquireReply, serverMs: number): AcquireReply {
  if (r.status === 1 || r.status === 2) {
    const status = r.status === 1 ? "granted" : "reentered";
    return { status, fence: r.fence, count: r.count, pttl: r.pttl, version: r.version };
  }
  if (r.status === -3) return { status: "busy", hint: quarantineHint(r.pttl) };
  return {
    status: "busy",
    hint: {
      remainingLeaseMs: Math.max(r.pttl, 0),
      position: r.position,
      meanHoldMs: r.meanHoldMs,
      holdAgeMs: r.holdAgeMs,
      serverMs,
    },
  };
}
