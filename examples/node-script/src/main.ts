// Run: UPSTASH_REDIS_REST_URL=… UPSTASH_REDIS_REST_TOKEN=… npm start
import { createClient } from "@edgelock/core";
import { runNightlyJob } from "./job.ts";

const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
};

// On Node the default timer keeper renews leases while the process lives.
const edgelock = createClient({
  redis: { url: env("UPSTASH_REDIS_REST_URL"), token: env("UPSTASH_REDIS_REST_TOKEN") },
});
const outcome = await runNightlyJob(edgelock);
await edgelock.settled(); // background cleanups, if any, before the process exits
console.log(outcome);
