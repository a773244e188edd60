import { safeEqual } from "./safe-equal.ts";

/** Name of the HttpOnly cookie the login form sets. */
export const SESSION_COOKIE = "edgelock_inspector";

/**
 * A stateless session: `expiry.mac` where mac = HMAC-SHA256(token, expiry). Nothing is stored,
 * the token itself never leaves the server, and rotating the token ends every session.
 */
export async function issueSession(
  token: string,
  ttlMs: number,
  nowMs = Date.now(),
): Promise<string> {
  const expiry = String(nowMs + ttlMs);
  return `${expiry}.${await mac(token, expiry)}`;
}

export async function verifySession(
  token: string,
  value: string | undefined,
  nowMs = Date.now(),
): Promise<boolean> {
  if (value === undefined) return false;
  const dot = value.indexOf(".");
  const expiry = value.slice(0, dot);
  if (dot < 1 || !/^\d{1,16}$/.test(expiry) || Number(expiry) <= nowMs) return false;
  return safeEqual(value.slice(dot + 1), await mac(token, expiry));
}

async function mac(token: string, message: string): Promise<string> {
  const encoder = new TextEncoder();
  const key = await crypto.subtle.importKey(
    "raw",
    encoder.encode(token),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const bytes = new Uint8Array(
    await crypto.subtle.sign("HMAC", key, encoder.encode(`edgelock-inspector:v1:${message}`)),
  );
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}
