import { edgelockLibrary } from "./edgelock.ts";
import { naiveLibrary } from "./naive.ts";
import { redisSemaphoreLibrary } from "./redis-semaphore.ts";
import { redlockLibrary } from "./redlock.ts";
import type { LockLibrary } from "./types.ts";
import { upstashLockLibrary } from "./upstash-lock.ts";

export type { LockLibrary, LockWorker, BenchHold, LibraryEnv, AcquireRequest } from "./types.ts";

/** Every library in the order the report lists them. */
export const LIBRARIES: readonly LockLibrary[] = [
  edgelockLibrary("push"),
  edgelockLibrary("polling"),
  upstashLockLibrary,
  redlockLibrary,
  redisSemaphoreLibrary,
  naiveLibrary,
];
