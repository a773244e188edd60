import type { EdgelockClient } from "../../client.ts";
import type { InspectKind } from "../types.ts";
import type { KindInspection } from "./kind-inspection.ts";
import { isTruncated, lastFence, lockHolder, queueWaiters } from "./decode-reads.ts";

/** The keys of a Lock-layout primitive: the holder's hash, the FIFO queue, its deadlines, the fence. */
interface LockLayoutKeys {
  readonly lock: string;
  readonly queue: string;
  readonly queueDeadlines: string;
  readonly fence: string;
}

/** The inspection of a primitive kept in the Lock's layout (the Lock itself, the fair lock), under its own keys. */
export function lockLayoutInspection(
  kind: InspectKind,
  keysOf: (prefix: string, name: string) => LockLayoutKeys,
  forceUnlock: (client: EdgelockClient, name: string) => Promise<boolean>,
): KindInspection {
  return {
    kind,
    plan(prefix, name) {
      const k = keysOf(prefix, name);
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
    forceUnlock,
  };
}
