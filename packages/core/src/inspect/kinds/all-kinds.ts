import { fairLockInspection } from "./fair-lock.ts";
import { latchInspection } from "./latch.ts";
import { lockInspection } from "./lock.ts";
import type { KindInspection } from "./kind-inspection.ts";
import { permitSemaphoreInspection } from "./permit-semaphore.ts";
import { quorumLockInspection } from "./quorum-lock.ts";
import { readWriteLockInspection } from "./read-write-lock.ts";
import { semaphoreInspection } from "./semaphore.ts";

/**
 * Every kind inspection knows, in detection order: when a name holds several kinds and none is
 * asked for, `describe` shows the first present. A new primitive adds its `KindInspection` here.
 */
export const KIND_INSPECTIONS: readonly KindInspection[] = Object.freeze([
  lockInspection,
  fairLockInspection,
  readWriteLockInspection,
  semaphoreInspection,
  permitSemaphoreInspection,
  latchInspection,
  quorumLockInspection,
]);
