import type { NodeRedisClient } from "@edgelock/testkit";
import * as engine from "../../../../packages/core/src/engine/scripts.generated.ts";
import * as fairLock from "../../../../packages/core/src/fair-lock/scripts.generated.ts";
import * as latch from "../../../../packages/core/src/latch/scripts.generated.ts";
import * as lock from "../../../../packages/core/src/lock/scripts.generated.ts";
import * as multiLock from "../../../../packages/core/src/multi-lock/scripts.generated.ts";
import * as permitSemaphore from "../../../../packages/core/src/permit-semaphore/scripts.generated.ts";
import * as readWriteLock from "../../../../packages/core/src/read-write-lock/scripts.generated.ts";
import * as semaphore from "../../../../packages/core/src/semaphore/scripts.generated.ts";

/**
 * Loads the scripts under test before the run, as on a database already in use: otherwise every
 * actor's first request pays EVALSHA → NOSCRIPT → EVAL in the serialized queue at once, and the
 * run starts with a burst of timeouts that says nothing about the protocol.
 */
export async function preloadScripts(redis: NodeRedisClient): Promise<void> {
  for (const module of [
    engine,
    lock,
    fairLock,
    readWriteLock,
    multiLock,
    semaphore,
    permitSemaphore,
    latch,
  ])
    for (const script of Object.values(module)) await redis.scriptLoad(script.source);
}
