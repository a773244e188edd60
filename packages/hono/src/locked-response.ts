import type { Lock } from "@edgelock/core/lock";
import type { Context, Env } from "hono";
import type { LockMiddlewareOptions } from "./options.ts";
import { expectedFreeInMs } from "./retry-after.ts";

/** 423 Locked with `Retry-After`: the lock stayed busy for the whole wait budget (`error`). */
export async function lockedResponse<E extends Env>(
  c: Context<E>,
  lock: Lock,
  o: LockMiddlewareOptions<E>,
  error: unknown,
): Promise<Response> {
  const retryAfterSeconds = await retryAfter(lock, o.retryAfterSeconds, error);
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
  error: unknown,
): Promise<number> {
  if (typeof option === "number") return Math.max(0, Math.ceil(option));
  // When the lock is likely free (never a constant): see expectedFreeInMs. Never < 1 s.
  const freeInMs = await expectedFreeInMs(lock, error);
  const seconds = typeof option === "function" ? option(freeInMs) : freeInMs / 1_000;
  return Math.max(1, Math.ceil(seconds));
}
