import { permitSemaphoreKeys } from "../../keys.ts";
import type { KindInspection } from "./kind-inspection.ts";
import { isTruncated, lastFence, queueWaiters, toInt } from "./decode-reads.ts";

/**
 * The permit-expirable semaphore: each live permit (id → expiry) is a holder; an expired permit is
 * free by the server's clock even before a script drops it. A direct grant is a permit too.
 */
export const permitSemaphoreInspection: KindInspection = {
  kind: "permit-expirable-semaphore",
  plan(prefix, name) {
    const k = permitSemaphoreKeys(prefix, name);
    return [
      { key: k.state, op: { type: "hash" } },
      { key: k.permits, op: { type: "zset", live: true } },
      { key: k.queue, op: { type: "zset", live: false } },
      { key: k.queueDeadlines, op: { type: "scores", of: 2 } },
      { key: k.fence, op: { type: "string" } },
    ];
  },
  primary: [0, 1, 2],
  decode(r, view) {
    const state = r.hash(0);
    const permits = r.zset(1);
    const queue = r.zset(2);
    const total = toInt(state.fields.get("t"), 0);
    return {
      holders: permits.entries.map((p) => ({
        owner: view.owner(p.member),
        count: 1,
        remainingMs: Math.max(0, p.score - r.now),
        fence: null,
        mode: "permit" as const,
        claimed: true,
      })),
      fence: lastFence(r.string(4)),
      waiters: queueWaiters(queue, r.scores(3), r.now, view),
      permits: { available: total - permits.live, total },
      count: null,
      truncated: permits.live > permits.entries.length || isTruncated(queue),
    };
  },
};
