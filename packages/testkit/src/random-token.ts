import { randomBytes } from "node:crypto";

/** A random bearer token for a rest-server of our own. */
export function randomToken(): string {
  return randomBytes(16).toString("hex");
}
