import type { MiddlewareHandler } from "hono";
import { isAuthorized } from "./auth.ts";
import type { AppEnv } from "./env.ts";

/**
 * Per request: whether the caller is authenticated, a fresh script nonce, and headers that keep
 * the pages from being framed, sniffed, cached or made to run any script but our own.
 */
export function baseMiddleware(token: string): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const nonce = crypto.randomUUID().replace(/-/g, "");
    c.set("nonce", nonce);
    c.set("authed", await isAuthorized(c, token));
    await next();
    c.header(
      "Content-Security-Policy",
      `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'unsafe-inline'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`,
    );
    c.header("X-Content-Type-Options", "nosniff");
    // same-origin, not no-referrer: with no-referrer a browser sends `Origin: null` on form posts
    c.header("Referrer-Policy", "same-origin");
    c.header("Cache-Control", "no-store");
  };
}
