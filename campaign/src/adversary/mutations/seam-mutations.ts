import type { Mutation } from "./mutation.ts";
import {
  LOCKS_CALM,
  LOCKS_HANDOVER,
  LOCKS_KEPT,
  LOCKS_UNKNOWN,
  SEMAPHORE_UNKNOWN,
  LOCKS_SHORT_RECORDS,
  SEMAPHORE_SHORT_RECORDS,
} from "./worlds.ts";

/** Mutations through the core's test-only seams (packages/core/src/test-seams.ts). */
export const SEAM_MUTATIONS: readonly Mutation[] = [
  {
    name: "lock-record-ttl-retry-window-plus-1",
    finding: 6,
    rule: "a record outlives every copy, the settle and a repeat",
    operation: "lock acquire/release",
    apply: { kind: "seam", seam: "acceptShortRecordTtl" },
    config: LOCKS_SHORT_RECORDS,
    seconds: 4,
    pending:
      "15/20 (4 s runs). Seen as orphan-hold and leaked-hold; needs a world with more lost responses on acquire",
  },
  {
    name: "semaphore-record-ttl-retry-window-plus-1",
    finding: 6,
    rule: "a record outlives every copy, the settle and a repeat",
    operation: "semaphore acquire/release",
    apply: { kind: "seam", seam: "acceptShortRecordTtl" },
    config: SEMAPHORE_SHORT_RECORDS,
    seconds: 2,
  },
  {
    name: "keeper-interval-from-first-lease",
    finding: 7,
    rule: "a keeper renews at a third of the current lease",
    operation: "lock keeper after extend(ms)",
    apply: { kind: "seam", seam: "keeperIntervalFromFirstLease" },
    config: LOCKS_CALM,
    seconds: 4,
    pending:
      "16/20 (4 s runs, calm). Seen only as lost-without-fault when a kept-alive hold ends a section on its short lease",
  },
  {
    name: "two-renewals-in-flight",
    rule: "one renewal of a hold in flight at a time",
    operation: "lock keeper + extend",
    apply: { kind: "seam", seam: "concurrentRenewals" },
    config: LOCKS_KEPT,
    seconds: 4,
    pending:
      "13/20 (4 s runs). Seen as dishonest-lease and stale-renewal when a keeper renewal and an extend overlap",
  },
  {
    name: "resume-trusts-expires-at",
    rule: "a resumed hold is trusted from its first confirmed renewal",
    operation: "lock resume",
    apply: { kind: "seam", seam: "resumeTrustsExpiresAt" },
    config: LOCKS_HANDOVER,
    seconds: 2,
  },
  {
    name: "lock-unknown-before-deadline",
    rule: "OutcomeUnknownError only once the deadline surely passed",
    operation: "lock acquire/extend/release",
    apply: { kind: "seam", seam: "unknownBeforeDeadline" },
    config: LOCKS_UNKNOWN,
    seconds: 4,
  },
  {
    name: "semaphore-unknown-before-deadline",
    rule: "OutcomeUnknownError only once the deadline surely passed",
    operation: "semaphore acquire/release",
    apply: { kind: "seam", seam: "unknownBeforeDeadline" },
    config: SEMAPHORE_UNKNOWN,
    seconds: 4,
  },
];
