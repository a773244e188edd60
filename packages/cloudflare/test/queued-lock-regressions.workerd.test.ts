import {
  QUEUED_PRIMITIVES,
  runQueuedLockRegressions,
} from "../../core/test/protocol/queued-lock-regressions.ts";
import { WORKERD_TARGET, workerdRedis } from "./workerd/upstash.ts";

// Issue 13's findings 1 and 2 on the FairLock and both sides of the ReadWriteLock, inside
// workerd. Nothing is excluded: no case needs to stop or restart Redis.
for (const primitive of QUEUED_PRIMITIVES) {
  runQueuedLockRegressions({ name: WORKERD_TARGET, makeRedis: workerdRedis }, primitive);
}
