import { closeAll, startRedis, startStack, type Stack } from "@edgelock/testkit";
import { installClockSkew } from "../world/clock-skew.ts";

/**
 * The processes a campaign needs, for the duration of `fn`: the lock service (a Redis with an
 * append-only file, so restarts can keep or lose its data, behind a rest-server with faults on),
 * a second Redis for the fenced resources, and the per-worker `Date.now` skew.
 */
export async function withInfrastructure<T>(
  fn: (stack: Stack, resourceRedisUrl: string) => Promise<T>,
): Promise<T> {
  const uninstallSkew = installClockSkew();
  const stack = await startStack({ persistence: true });
  const resourceRedis = await startRedis();
  try {
    return await fn(stack, resourceRedis.url);
  } finally {
    // The testkit waits for a stopped redis-server's exit with nothing holding the event loop
    // open (the child and its timeout are unref'd): outside vitest, a plain script would end in
    // the middle of that await (exit code 13). Hold the loop open until both are stopped.
    const keepAlive = setInterval(() => undefined, 1_000);
    try {
      await closeAll();
      await stack.close();
      await resourceRedis.stop();
    } finally {
      clearInterval(keepAlive);
      uninstallSkew();
    }
  }
}
