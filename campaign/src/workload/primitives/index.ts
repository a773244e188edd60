export type { Activity } from "./activity.ts";
export { fairLockActivity } from "./fair-lock.ts";
export { latchActivity } from "./latch.ts";
export { lockActivity } from "./lock.ts";
export { multiLockActivity } from "./multi-lock.ts";
export { permitSemaphoreActivity } from "./permit-semaphore.ts";
export { readLockActivity, writeLockActivity } from "./read-write-lock.ts";
export { semaphoreActivity } from "./semaphore.ts";
