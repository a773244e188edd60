import { latchKeys } from "../../keys.ts";
import type { KindInspection } from "./kind-inspection.ts";
import { toInt } from "./decode-reads.ts";

/** The count-down latch: a count and nothing held (awaiters poll or listen; they do not queue). */
export const latchInspection: KindInspection = {
  kind: "count-down-latch",
  plan(prefix, name) {
    return [{ key: latchKeys(prefix, name).latch, op: { type: "hash" } }];
  },
  primary: [0],
  decode(r) {
    return {
      holders: [],
      fence: null,
      waiters: [],
      permits: null,
      count: toInt(r.hash(0).fields.get("c"), 0),
      truncated: false,
    };
  },
};
