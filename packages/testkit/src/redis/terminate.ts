import { setTimeout as sleep } from "node:timers/promises";
import type { RedisServer } from "./spawn-redis.ts";

export const STOP_TIMEOUT_MS = 5_000;

/** Sends `signal` and waits for the exit; escalates to SIGKILL after `STOP_TIMEOUT_MS`. */
export async function terminate(server: RedisServer, signal: "SIGTERM" | "SIGKILL"): Promise<void> {
  const { child } = server;
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill(signal);
  // The timer is ref'd (the child is unref'd): a plain Node script awaiting stop() must not exit
  // mid-await for lack of pending work. It is cancelled as soon as the server has gone.
  const cancel = new AbortController();
  const timedOut = await Promise.race([
    server.exited.then(() => false),
    sleep(STOP_TIMEOUT_MS, true, { signal: cancel.signal }).catch(() => false),
  ]);
  cancel.abort();
  if (timedOut) {
    child.kill("SIGKILL");
    await server.exited;
  }
}
