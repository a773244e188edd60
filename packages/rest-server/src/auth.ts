import { createHash, timingSafeEqual } from "node:crypto";

/** Upstash's wording for a missing or wrong token (docs: redis/troubleshooting/http_unauthorized). */
export const UNAUTHORIZED_MESSAGE = "WRONGPASS invalid or missing auth token";

/**
 * Checks a request's token the two ways Upstash accepts it: `Authorization: Bearer <token>` or the
 * `_token` query parameter.
 */
export function isAuthorized(request: Request, token: string): boolean {
  const presented = presentedToken(request);
  return presented !== undefined && constantTimeEquals(presented, token);
}

function presentedToken(request: Request): string | undefined {
  const header = request.headers.get("authorization");
  const bearer = header === null ? undefined : /^Bearer\s+(.+)$/i.exec(header.trim())?.[1];
  if (bearer !== undefined) return bearer;
  return new URL(request.url).searchParams.get("_token") ?? undefined;
}

// Comparing digests keeps the comparison constant-time even when lengths differ, which a plain
// timingSafeEqual on the raw strings cannot do (it throws on a length mismatch).
function constantTimeEquals(a: string, b: string): boolean {
  const digest = (s: string) => createHash("sha256").update(s, "utf8").digest();
  return timingSafeEqual(digest(a), digest(b));
}
