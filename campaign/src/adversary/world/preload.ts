import type { NodeRedisClient } from "@edgelock/testkit";
import * as engine from "../../../../packages/core/src/engine/scripts.generated.ts";
import * as lock from "../../../../packages/core/src/lock/scripts.generated.ts";
import * as semaphore from "../../../../packages/core/src/semaphore/scripts.generated.ts";

/**
 * Loads the scripts under test before the run, as on a database already in use: otherwise every
 * actor's first request pays EVALSHA → NOSCRIPT → EVAL in the serialized queue at once, and the
 * run starts with a burst of timeouts that says nothing about the protocol.
 */
export async function preloadScripts(redis: NodeRedisClient): Promise<void> {
  for (const module of [engine, lock, semaphore])
    for (const script of Object.values(module)) await redis.scriptLoad(script.source);
}
