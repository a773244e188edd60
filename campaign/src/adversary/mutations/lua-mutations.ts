import type { Mutation } from "./mutation.ts";
import { replaceOnce } from "./mutation.ts";
import {
  LATCH_SETTLED,
  LOCKS_SETTLED_LONG,
  SEMAPHORE_SETTLED,
  LOCKS_CONGESTED,
  LOCKS_LATE_WIDE,
  LOCKS_STRAGGLERS,
  SEMAPHORE_LATE_WIDE,
  SEMAPHORE_STRAGGLERS,
} from "./worlds.ts";

// Lines of the shared protocol prologue/epilogue (common/protocol-*.lua) as they ship: compact,
// inside every @protocol script. A transform names one script, so only that operation weakens.
const RECORD_EVERY_ANSWER =
  "redis.call('SET', op_key, table.concat(__parts, ','), 'PX', math.max(op_deadline + op_margin - now_ms, 1))";
const REFUSE_LATE = "if now_ms > op_deadline then return {-100, -1, -1, now_ms} end";
const HONOUR_TOMBSTONE = "if __record == 'x' then return {-101, -1, -1, now_ms} end";

/** Finding 1: only grants are recorded; a late copy of a busy answer runs again and may grant. */
const recordOnlyGrants = (source: string) =>
  replaceOnce(source, RECORD_EVERY_ANSWER, `if __answer[1] > 0 then ${RECORD_EVERY_ANSWER} end`);
/** No deadline: a copy that arrives after it (record and tombstone expired) still applies. */
const noDeadline = (source: string) => replaceOnce(source, REFUSE_LATE, "");
/** A settled (tombstoned) operation is run anyway by a late copy, as count-down.lua once did. */
const ignoreTombstone = (source: string) =>
  replaceOnce(source, HONOUR_TOMBSTONE, "if __record == 'x' then __record = nil end");

export const LUA_MUTATIONS: readonly Mutation[] = [
  {
    name: "lock-acquire-records-only-grants",
    finding: 1,
    rule: "every answer is recorded",
    operation: "lock acquire",
    apply: { kind: "lua", script: "lock/acquire", transform: recordOnlyGrants },
    config: LOCKS_LATE_WIDE,
    seconds: 3,
  },
  {
    name: "semaphore-acquire-records-only-grants",
    finding: 1,
    rule: "every answer is recorded",
    operation: "semaphore acquire",
    apply: { kind: "lua", script: "semaphore/acquire", transform: recordOnlyGrants },
    config: SEMAPHORE_LATE_WIDE,
    seconds: 3,
  },
  {
    name: "lock-acquire-no-deadline",
    rule: "no copy applies after its deadline",
    operation: "lock acquire",
    apply: { kind: "lua", script: "lock/acquire", transform: noDeadline },
    config: LOCKS_STRAGGLERS,
    seconds: 1.5,
  },
  {
    name: "lock-extend-no-deadline",
    rule: "no copy applies after its deadline",
    operation: "lock extend",
    apply: { kind: "lua", script: "lock/extend", transform: noDeadline },
    config: LOCKS_STRAGGLERS,
    seconds: 1.5,
    pending:
      "2/20. Redundant for one renewer: a renewal's late copy carries an old lease version, so the version check refuses it as stale even past its deadline; only a second renewer of the same lease (a hand-over's keeper) could expose it",
  },
  {
    name: "lock-release-no-deadline",
    rule: "no copy applies after its deadline",
    operation: "lock release",
    apply: { kind: "lua", script: "lock/release", transform: noDeadline },
    config: LOCKS_STRAGGLERS,
    seconds: 1.5,
    pending:
      "5/20. A lock release comes from a client that knows server time, so its late copies (1.5-2.5 s) meet a hold whose lease already ended and change nothing; needs releases of long-leased holds from fresh clients",
  },
  {
    name: "semaphore-release-no-deadline",
    rule: "no copy applies after its deadline",
    operation: "semaphore release",
    apply: { kind: "lua", script: "semaphore/release", transform: noDeadline },
    config: SEMAPHORE_STRAGGLERS,
    seconds: 2.5,
  },
  {
    name: "lock-acquire-ignores-tombstone",
    rule: "a settled operation never applies",
    operation: "lock acquire",
    apply: { kind: "lua", script: "lock/acquire", transform: ignoreTombstone },
    config: LOCKS_LATE_WIDE,
    seconds: 3,
  },
  {
    name: "lock-release-ignores-tombstone",
    rule: "a settled operation never applies",
    operation: "lock release",
    apply: { kind: "lua", script: "lock/release", transform: ignoreTombstone },
    config: LOCKS_SETTLED_LONG,
    seconds: 3,
    pending:
      "0/20 (3 s runs, 0.5-2 s leases). A client that knows server time settles only once its deadline passed, so any later copy is refused as LATE before the tombstone matters; only a fresh client's release (resume, then release without extending) exposes it, and the workload extends after resume as the docs advise",
  },
  {
    name: "semaphore-release-ignores-tombstone",
    rule: "a settled operation never applies",
    operation: "semaphore release",
    apply: { kind: "lua", script: "semaphore/release", transform: ignoreTombstone },
    config: SEMAPHORE_SETTLED,
    seconds: 3,
  },
  {
    name: "latch-count-down-ignores-tombstone",
    rule: "a settled operation never applies",
    operation: "latch countDown",
    apply: { kind: "lua", script: "latch/count-down", transform: ignoreTombstone },
    config: LATCH_SETTLED,
    seconds: 3,
  },
  {
    name: "lock-extend-unversioned",
    finding: 2,
    rule: "renewals are ordered by the lease version",
    operation: "lock extend",
    apply: {
      kind: "lua",
      script: "lock/extend",
      transform: (source) =>
        replaceOnce(
          source,
          "if version ~= tonumber(ARGV[3]) then return {2, version, redis.call('PTTL', KEYS[1])} end",
          "",
        ),
    },
    config: LOCKS_CONGESTED,
    seconds: 2,
    pending:
      "1/20. For one renewer the operation record, the tombstone and the deadline already stop a stale renewal; the version only orders renewals of two objects (a resumed hold and the first invocation's keeper), which the workload rarely races",
  },
];
