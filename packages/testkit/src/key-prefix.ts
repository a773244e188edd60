import { randomBytes } from "node:crypto";

const ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz";
const RANDOM_CHARS = 12;

/**
 * A fresh prefix per test: `t-` and 12 random base-36 characters (~62 bits). All prefixes have the
 * same length, so none is a prefix of another and `cleanupPrefix` never reaches a neighbour's keys.
 */
export function keyPrefix(): string {
  const bytes = randomBytes(RANDOM_CHARS);
  let id = "";
  for (const byte of bytes) id += ALPHABET[byte % ALPHABET.length];
  return `t-${id}`;
}
