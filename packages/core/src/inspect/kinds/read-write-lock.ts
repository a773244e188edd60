import { readWriteLockKeys } from "../../keys.ts";
import type { Holder } from "../types.ts";
import type { KindInspection } from "./kind-inspection.ts";
import {
  isTruncated,
  lastFence,
  lockHolder,
  queueWaiters,
  toFence,
  toInt,
} from "./decode-reads.ts";

/**
 * The read-write lock: the writer in a Lock-layout hash, live readers in a zset (reader → lease
 * expiry) with each reader's count and fence in a hash (`c<owner>`, `f<owner>`), queued writers.
 */
export const readWriteLockInspection: KindInspection = {
  kind: "read-write-lock",
  plan(prefix, name) {
    const k = readWriteLockKeys(prefix, name);
    return [
      { key: k.lock, op: { type: "hash" } },
      { key: k.readers, op: { type: "zset", live: true } },
      { key: k.readerHolds, op: { type: "fields", of: 1, prefixes: ["c", "f"] } },
      { key: k.queue, op: { type: "zset", live: false } },
      { key: k.queueDeadlines, op: { type: "scores", of: 3 } },
      { key: k.fence, op: { type: "string" } },
    ];
  },
  primary: [0, 1, 3],
  decode(r, view) {
    const readers = r.zset(1);
    const holds = r.fields(2).values;
    const queue = r.zset(3);
    const readHolders: Holder[] = readers.entries.map((entry, i) => ({
      owner: view.owner(entry.member),
      count: toInt(holds[i]?.[0], 1),
      remainingMs: Math.max(0, entry.score - r.now),
      fence: toFence(holds[i]?.[1] ?? undefined),
      mode: "read",
      claimed: true,
    }));
    return {
      holders: [...lockHolder(r.hash(0), "write", view), ...readHolders],
      fence: lastFence(r.string(5)),
      waiters: queueWaiters(queue, r.scores(4), r.now, view),
      permits: null,
      count: null,
      truncated: readers.live > readers.entries.length || isTruncated(queue),
    };
  },
  async forceUnlock(client, name) {
    const lock = client.readWriteLock(name);
    // Both sides: whichever goes last hands the lock to the first live queued writer.
    const writer = await lock.write.forceUnlock();
    const readers = await lock.read.forceUnlock();
    return writer || readers;
  },
};
