import { randomBytes } from "node:crypto";

const ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz";
const RANDOM_CHARS = 12;

/**
 * What every prefix of this test file starts with: "" by default. A run against a shared database
 * (the live Upstash suites) scopes it to a run of its own, so one `SCAN MATCH scope*` finds every
 * key the run wrote and nothing of another run's. Module state: vitest loads the testkit afresh
 * for each test file, so a scope never leaks into another file.
 */
let scope = "";

/**
 * Makes every later `keyPrefix()` of this test file start with `runScope` (say `live-3k9…-`).
 * Set it before the suites register (top level of the test file), once.
 * @throws TypeError when `runScope` is empty or holds a glob character (`*?[]\`), which would
 * make `SCAN MATCH` reach other runs' keys.
 */
export function scopeKeyPrefixes(runScope: string): void {
  if (runScope === "" || /[*?[\]\\]/.test(runScope)) {
    throw new TypeError(
      `runScope: must be non-empty with no glob character, got ${JSON.stringify(runScope)}`,
    );
  }
  scope = runScope;
}

/**
 * A random run scope: `label-`, 12 random base-36 characters, then `-` (no `:`: the core reads a
 * key's parts by its colons, so a prefix has none).
 */
export function randomRunScope(label = "live"): string {
  return `${label}-${randomId()}-`;
}

/**
 * A fresh prefix per test: the file's scope (see `scopeKeyPrefixes`), `t-` and 12 random base-36
 * characters (~62 bits). All prefixes of a file have the same length, so none is a prefix of
 * another and `cleanupPrefix` never reaches a neighbour's keys.
 */
export function keyPrefix(): string {
  return `${scope}t-${randomId()}`;
}

function randomId(): string {
  const bytes = randomBytes(RANDOM_CHARS);
  let id = "";
  for (const byte of bytes) id += ALPHABET[byte % ALPHABET.length];
  return id;
}
