import { fairLockPart } from "./fair-lock.ts";
import { latchPart } from "./latch.ts";
import { lockPart } from "./lock.ts";
import type { DescribePart } from "./part.ts";
import { permitSemaphorePart } from "./permit-semaphore.ts";
import { quorumLockPart } from "./quorum-lock.ts";
import { readWriteLockPart } from "./read-write-lock.ts";
import { semaphorePart } from "./semaphore.ts";

/**
 * Every kind inspection knows, in detection order: when a name holds several kinds and none is
 * asked for, `describe` shows the first present. A new primitive adds its part here.
 */
export const DESCRIBE_PARTS: readonly DescribePart[] = Object.freeze([
  lockPart,
  fairLockPart,
  readWriteLockPart,
  semaphorePart,
  permitSemaphorePart,
  latchPart,
  quorumLockPart,
]);
