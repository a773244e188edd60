import type { SerializedLease } from "@edgelock/core/lock";

/**
 * The Durable Object name of one lease: a SHA-256 over (prefix, name, owner, fence), so any
 * invocation holding the serialised lease finds the same object, and the owner id (a bearer
 * secret of the hold) never appears in a URL, a log or a dashboard.
 */
export async function leaseObjectName(lease: SerializedLease): Promise<string> {
  const text = JSON.stringify([lease.prefix, lease.name, lease.owner, lease.fence]);
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return toHex(new Uint8Array(digest));
}

function toHex(bytes: Uint8Array): string {
  let hex = "";
  for (const b of bytes) hex += b.toString(16).padStart(2, "0");
  return hex;
}
