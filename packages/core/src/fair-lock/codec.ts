import type { ReplyOf } from "../engine/manifest.ts";
import { busyAnswer, decodeGrant, type AcquireReply } from "../lock/codec.ts";
import type { acquireScript } from "./scripts.generated.ts";

/**
 * The fair lock's acquire reply, by name; the read-write lock's acquire scripts answer the same
 * slots (status fence count pttl position meanHoldMs holdAgeMs version).
 */
export type QueuedAcquireReply = ReplyOf<typeof acquireScript>;

/** Decodes a fair-layout acquire reply (the engine took the server time off). */
export function decodeQueuedAcquire(r: QueuedAcquireReply, serverMs: number): AcquireReply {
  const stats = { meanHoldMs: r.meanHoldMs, holdAgeMs: r.holdAgeMs };
  return decodeGrant(r) ?? busyAnswer(r, serverMs, stats);
}
