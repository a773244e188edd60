// Run: UPSTASH_REDIS_REST_URL=… UPSTASH_REDIS_REST_TOKEN=… pnpm start
import { createClient } from "@edgelock/core";
import { Redis } from "@upstash/redis";
import { runNightlyJob } from "./job.ts";

const edgelock = createClient({ redis: Redis.fromEnv() }); // on Node the timer keeper renews leases
const outcome = await runNightlyJob(edgelock);
await edgelock.settled(); // background cleanups, if any, before the process exits
console.log(outcome);
