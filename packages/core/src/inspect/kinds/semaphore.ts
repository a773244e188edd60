import { semaphoreKeys } from "../../keys.ts";
import type { KindInspection } from "./kind-inspection.ts";
import { isTruncated, queueWaiters, semaphoreMember, toInt } from "./decode-reads.ts";

/**
 * The counting semaphore. Its permits have no owner and no lease, so its only holders are direct
 * grants reserved for a waiter until their claim deadline; a grant past it is free again (as the
 * scripts count it).
 */
export const semaphoreInspection: KindInspection = {
  kind: "semaphore",
  plan(prefix, name) {
    const k = semaphoreKeys(prefix, name);
    return [
      { key: k.state, op: { type: "hash" } },
      { key: k.queue, op: { type: "zset", live: false } },
      { key: k.queueDeadlines, op: { type: "scores", of: 1 } },
      { key: k.grants, op: { type: "zset", live: false } },
    ];
  },
  primary: [0, 1],
  decode(r, view) {
    const state = r.hash(0);
    const queue = r.zset(1);
    const grants = r.zset(3);
    let available = toInt(state.fields.get("a"), 0);
    const holders = [];
    for (const grant of grants.entries) {
      const { owner, permits } = semaphoreMember(grant.member);
      if (grant.score < r.now) available += permits;
      else
        holders.push({
          owner: view.owner(owner),
          count: permits,
          remainingMs: grant.score - r.now,
          fence: null,
          mode: "permit" as const,
          claimed: false,
        });
    }
    return {
      holders,
      fence: null,
      waiters: queueWaiters(queue, r.scores(2), r.now, view, semaphoreMember),
      permits:
        state.pttl === -2
          ? { available: 0, total: 0 }
          : { available, total: toInt(state.fields.get("t"), 0) },
      count: null,
      truncated: isTruncated(queue, grants),
    };
  },
};
