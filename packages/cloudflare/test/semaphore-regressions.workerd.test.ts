import { runSemaphoreRegressions } from "../../core/test/protocol/semaphore-regressions.ts";
import { WORKERD_TARGET, workerdRedis } from "./workerd/upstash.ts";

// Issue 13's findings 1, 2 and 8 on the Semaphore and the PermitExpirableSemaphore, inside
// workerd. Nothing is excluded: no case needs to stop or restart Redis.
runSemaphoreRegressions({ name: WORKERD_TARGET, makeRedis: workerdRedis });
