import { fairLockKeys } from "../../keys.ts";
import type { DescribePart } from "./part.ts";
import { isTruncated, lastFence, lockHolder, queueWaiters } from "./shared.ts";

/** The fair lock: the Lock's layout under its own `:fair:` keys. */
export const fairLockPart: DescribePart = {
  kind: "fair-lock",
  plan(prefix, name) {
    const k = fairLockKeys(prefix, name);
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
  forceUnlock: (client, name) => client.fairLock(name).forceUnlock(),
};
