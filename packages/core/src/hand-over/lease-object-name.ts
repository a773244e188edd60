import { holdIdentity } from "./hold-identity.ts";
import type { KeepableHold } from "./keepable-hold.ts";

/**
 * The Durable Object name of one hold: a SHA-256 over its identity (`holdIdentity`: for a Lock,
 * prefix, name, owner and fence), so any invocation holding the serialised hold finds the same
 * object, and the owner id (a bearer secret of the hold) never appears in a URL, a log or a
 * dashboard.
 */
export async function leaseObjectName(lease: KeepableHold): Promise<string> {
  const text = holdIdentity(lease);
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return toHex(new Uint8Array(digest));
}

function toHex(bytes: Uint8Array): string {
  let hex = "";
  for (const b of bytes) hex += b.toString(16).padStart(2, "0");
  return hex;
}
