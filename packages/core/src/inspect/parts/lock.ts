import { lockKeys } from "../../keys.ts";
import type { DescribePart } from "./part.ts";
import { isTruncated, lastFence, lockHolder, queueWaiters } from "./shared.ts";

/** The reentrant Lock (also what a multi-lock holds: it takes the Lock's own keys). */
export const lockPart: DescribePart = {
  kind: "lock",
  plan(prefix, name) {
    const k = lockKeys(prefix, name);
    return [
      { key: k.lock, op: { type: "hash" } },
      { key: k.queue, op: { type: "zset", live: false } },
      { key: k.queueDeadlines, op: { type: "scores", of: 1 } },
      { key: k.fence, op: { type: "string" } },
    ];
  },
  primary: [0, 1],
  decode(r, view) {
    const queue = r.zset(1);
    return {
      holders: lockHolder(r.hash(0), "exclusive", view),
      fence: lastFence(r.string(3)),
      waiters: queueWaiters(queue, r.scores(2), r.now, view),
      permits: null,
      count: null,
      truncated: isTruncated(queue),
    };
  },
  forceUnlock: (client, name) => client.lock(name).forceUnlock(),
};
