import { runLockRegressions } from "../../core/test/protocol/lock-regressions.ts";
import { WORKERD_TARGET, workerdRedis } from "./workerd/upstash.ts";

// Issue 13's Lock regressions inside workerd (findings 1, 2, 5, 6, 7 and the settled grant): the
// late-copy wrapper is a plain `Backend`, so it wraps the Worker's `@upstash/redis/cloudflare`
// connection as it wraps Node's. Nothing is excluded: no case needs to stop or restart Redis.
runLockRegressions({ name: WORKERD_TARGET, makeRedis: workerdRedis });
