import {
  fairLockActivity,
  latchActivity,
  lockActivity,
  multiLockActivity,
  permitSemaphoreActivity,
  readLockActivity,
  semaphoreActivity,
  writeLockActivity,
  type Activity,
} from "./primitives/index.ts";

/** Every primitive the campaign drives. */
export const ALL_ACTIVITIES: readonly Activity[] = [
  lockActivity,
  multiLockActivity,
  fairLockActivity,
  writeLockActivity,
  readLockActivity,
  semaphoreActivity,
  permitSemaphoreActivity,
  latchActivity,
];
