import type { Context } from "hono";
import { LockError } from "@edgelock/core";
import type { AppEnv } from "./env.ts";

/** Bad input is the caller's (400, naming the argument); a backend failure is upstream's (502). */
export function onError(error: Error, c: Context<AppEnv>) {
  if (error instanceof LockError && error.code === "INVALID_ARGUMENT")
    return c.json({ error: error.message, code: error.code }, 400);
  if (error instanceof LockError) return c.json({ error: error.message, code: error.code }, 502);
  console.error("inspector:", error);
  return c.json({ error: "internal error" }, 500);
}
