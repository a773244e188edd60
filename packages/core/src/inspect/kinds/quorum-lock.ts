import { quorumKeys } from "../../keys.ts";
import type { KindInspection } from "./kind-inspection.ts";
import { lastFence, lockHolder } from "./decode-reads.ts";

/**
 * A quorum lock as this one database sees it: the token of the acquisition holding it here, and
 * its fence once committed. A quorum lock is held when a majority of its databases say so, so
 * inspect each database's client; force-unlock is left to the lock's own lease.
 */
export const quorumLockInspection: KindInspection = {
  kind: "quorum-lock",
  plan(prefix, name) {
    const k = quorumKeys(prefix, name);
    return [
      { key: k.lock, op: { type: "hash" } },
      { key: k.fence, op: { type: "string" } },
    ];
  },
  primary: [0],
  decode(r, view) {
    return {
      holders: lockHolder(r.hash(0), "exclusive", view),
      fence: lastFence(r.string(1)),
      waiters: [],
      permits: null,
      count: null,
      truncated: false,
    };
  },
};
