import type { Lock } from "@edgelock/core";
import type { Context, Env } from "hono";
import type { LockMiddlewareOptions } from "./options.ts";

/** 423 Locked with `Retry-After`: the lock stayed busy for the whole wait budget. */
export async function lockedResponse<E extends Env>(
  c: Context<E>,
  lock: Lock,
  o: LockMiddlewareOptions<E>,
): Promise<Response> {
  const retryAfterSeconds = await retryAfter(lock, o.retryAfterSeconds);
  const info = { name: lock.name, retryAfterSeconds };
  const response = o.onLocked
    ? await o.onLocked(c, info)
    : c.json({ error: "locked", name: lock.name }, 423);
  response.headers.set("retry-after", String(retryAfterSeconds));
  return response;
}

async function retryAfter(
  lock: Lock,
  option: LockMiddlewareOptions["retryAfterSeconds"],
): Promise<number> {
  if (typeof option === "number") return Math.max(0, Math.ceil(option));
  // The holder's remaining lease is the earliest it could end if it stopped renewing; never < 1 s.
  const remaining = await lock.remainingMs().catch(() => 1_000);
  const seconds = typeof option === "function" ? option(remaining) : remaining / 1_000;
  return Math.max(1, Math.ceil(seconds));
}
