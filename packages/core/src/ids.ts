/**
 * Owner and operation ids: 128 random bits (122 in a v4 UUID are the design floor), base64url.
 * They are bearer secrets of a hold, so they are masked wherever they are shown.
 */
export function randomId(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/**
 * A handle's owner id. `shared`: other handles may act as this owner too (the caller named it, or
 * it came with a resumed hold), here or in another isolate, so this handle cannot wait for their
 * leaves in flight (see `trackUndo`) and never enters on a grant it has not claimed.
 */
export interface HandleOwner {
  readonly id: string;
  readonly shared: boolean;
}

/** An owner id that came from outside this handle (a caller's, a resumed hold's). */
export const sharedOwner = (id: string): HandleOwner => ({ id, shared: true });

/** The first 6 characters and a length hint: enough to correlate logs, useless to forge. */
export function maskId(id: string): string {
  return id.length <= 8 ? "…" : `${id.slice(0, 6)}…`;
}
