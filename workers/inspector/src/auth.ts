import type { Context } from "hono";
import { getCookie } from "hono/cookie";
import { safeEqual } from "./safe-equal.ts";
import { SESSION_COOKIE, verifySession } from "./session.ts";

/** `Authorization: Bearer <token>` (compared in constant time), or a valid login cookie. */
export async function isAuthorized(c: Context, token: string): Promise<boolean> {
  const header = c.req.header("authorization");
  if (header !== undefined)
    return header.startsWith("Bearer ") && safeEqual(header.slice("Bearer ".length), token);
  return verifySession(token, getCookie(c, SESSION_COOKIE));
}

/**
 * A cookie-authenticated change must come from this app's own pages: the cookie is SameSite=Strict,
 * and a browser's `Origin` (when sent) must be ours. Bearer callers are not browsers.
 */
export function isSameOrigin(c: Context): boolean {
  const origin = c.req.header("origin");
  return origin === undefined || origin === new URL(c.req.url).origin;
}

/** Only a path of this app is a place to go back to after login (no open redirect). */
export function safeNext(next: string | undefined): string {
  return next !== undefined &&
    next.startsWith("/") &&
    !next.startsWith("//") &&
    !next.startsWith("/\\")
    ? next
    : "/";
}
