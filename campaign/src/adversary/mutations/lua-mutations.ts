import type { Mutation } from "./mutation.ts";
import { replaceOnce } from "./mutation.ts";
import {
  LATCH_SETTLED,
  LOCKS_SETTLED_ACQUIRES,
  LOCKS_SETTLED_RESUMED_RELEASES,
  LOCKS_STRAGGLING_RELEASES,
  SEMAPHORE_SETTLED_RELEASES,
  LOCKS_HANDOVER_RACE,
  LOCKS_LATE_ANSWERED,
  SEMAPHORE_LATE_ANSWERED,
  LOCKS_RESUME_STRAGGLERS,
  PERMITS_HANDOVER_RACE,
  LOCKS_STRAGGLERS,
  SEMAPHORE_SETTLED_ACQUIRES,
  SEMAPHORE_STRAGGLING_ACQUIRES,
  SEMAPHORE_STRAGGLING_RELEASES,
  unhurried,
} from "./worlds.ts";

// Lines of the shared protocol prologue/epilogue (common/protocol-*.lua) as they ship: compact,
// in the .lua files' names (`replaceOnce` renames them as the shipped Lua is renamed),
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
    config: LOCKS_LATE_ANSWERED,
    seconds: 9,
  },
  {
    name: "semaphore-acquire-records-only-grants",
    finding: 1,
    rule: "every answer is recorded",
    operation: "semaphore acquire",
    apply: { kind: "lua", script: "semaphore/acquire", transform: recordOnlyGrants },
    config: SEMAPHORE_LATE_ANSWERED,
    // 24 s worlds were caught 19/20 in two pooled CI runs (40/40 alone under load): at a 1-in-20
    // miss rate, two misses in 20 would fail the gate about one run in four; 36 s gives each
    // world half as many late-answered acquires again
    seconds: 36,
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
    config: LOCKS_RESUME_STRAGGLERS,
    seconds: 1,
  },
  {
    name: "lock-release-no-deadline",
    rule: "no copy applies after its deadline",
    operation: "lock release",
    apply: { kind: "lua", script: "lock/release", transform: noDeadline },
    config: LOCKS_STRAGGLING_RELEASES,
    seconds: 1.5,
  },
  {
    name: "semaphore-release-no-deadline",
    rule: "no copy applies after its deadline",
    operation: "semaphore release",
    apply: { kind: "lua", script: "semaphore/release", transform: noDeadline },
    config: SEMAPHORE_STRAGGLING_RELEASES,
    seconds: 2,
  },
  {
    name: "semaphore-acquire-no-deadline",
    rule: "no copy applies after its deadline",
    operation: "semaphore acquire",
    apply: { kind: "lua", script: "semaphore/acquire", transform: noDeadline },
    config: SEMAPHORE_STRAGGLING_ACQUIRES,
    seconds: 1.5,
  },
  {
    name: "lock-acquire-ignores-tombstone",
    rule: "a settled operation never applies",
    operation: "lock acquire",
    apply: { kind: "lua", script: "lock/acquire", transform: ignoreTombstone },
    config: LOCKS_SETTLED_ACQUIRES,
    seconds: 2,
  },
  {
    name: "lock-release-ignores-tombstone",
    rule: "a settled operation never applies",
    operation: "lock release",
    apply: { kind: "lua", script: "lock/release", transform: ignoreTombstone },
    config: LOCKS_SETTLED_RESUMED_RELEASES,
    seconds: 1.5,
  },
  {
    name: "semaphore-release-ignores-tombstone",
    rule: "a settled operation never applies",
    operation: "semaphore release",
    apply: { kind: "lua", script: "semaphore/release", transform: ignoreTombstone },
    config: SEMAPHORE_SETTLED_RELEASES,
    seconds: 3,
  },
  {
    name: "semaphore-acquire-ignores-tombstone",
    rule: "a settled operation never applies",
    operation: "semaphore acquire",
    apply: { kind: "lua", script: "semaphore/acquire", transform: ignoreTombstone },
    config: SEMAPHORE_SETTLED_ACQUIRES,
    // 3 s caught 18 of 20 on a loaded machine (fewer late copies landed after their settle)
    seconds: 5,
  },
  {
    name: "latch-count-down-ignores-tombstone",
    rule: "a settled operation never applies",
    operation: "latch countDown",
    apply: { kind: "lua", script: "latch/count-down", transform: ignoreTombstone },
    config: unhurried(LATCH_SETTLED, 2),
    seconds: 5,
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
    config: LOCKS_HANDOVER_RACE,
    seconds: 1,
  },
  {
    name: "permit-extend-unversioned",
    finding: 2,
    rule: "renewals are ordered by the lease version",
    operation: "permit-semaphore extend",
    apply: {
      kind: "lua",
      script: "permit-semaphore/extend",
      transform: (source) =>
        replaceOnce(
          source,
          "if version ~= tonumber(ARGV[2]) then return {2, version, expiry - now_ms} end",
          "",
        ),
    },
    config: PERMITS_HANDOVER_RACE,
    seconds: 1,
  },
];
