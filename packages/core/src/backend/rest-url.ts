import { InvalidArgumentError } from "../errors.ts";

const EXPECTED =
  "expected an http(s) URL of an Upstash REST endpoint (UPSTASH_REDIS_REST_URL, e.g. https://eu1-example-12345.upstash.io)";

/**
 * The URL of an Upstash REST endpoint, checked when the client is made, so a misconfiguration
 * fails at once with a message that says what to fix instead of as a network error later.
 * Returns it without trailing slashes. Credentials in an echoed URL are masked.
 */
export function validateRestUrl(argument: string, value: unknown, label = ""): string {
  const fail = (message: string) => new InvalidArgumentError(argument, `${label}${message}`);
  if (typeof value !== "string" || value.trim() === "") {
    const got = value === "" ? '""' : String(value);
    throw fail(`${EXPECTED}, got ${got} (is UPSTASH_REDIS_REST_URL set?)`);
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw fail(`${EXPECTED}, got ${JSON.stringify(value)}`);
  }
  if (url.protocol === "redis:" || url.protocol === "rediss:") {
    throw fail(
      `${EXPECTED}, got ${masked(url)} (that is a Redis protocol URL; use the REST URL, UPSTASH_REDIS_REST_URL, or pass a connected node-redis client to speak TCP)`,
    );
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw fail(`${EXPECTED}, got ${masked(url)}`);
  }
  if (url.username !== "" || url.password !== "") {
    throw fail(`must not carry credentials (got ${masked(url)}); pass the REST token as token`);
  }
  return value.trim().replace(/\/+$/, "");
}

/** A REST token: a non-empty string (`UPSTASH_REDIS_REST_TOKEN`). */
export function validateRestToken(argument: string, value: unknown): string {
  if (typeof value !== "string" || value.trim() === "") {
    const got = value === "" ? '""' : String(value);
    throw new InvalidArgumentError(
      argument,
      `must be the Upstash REST token (UPSTASH_REDIS_REST_TOKEN), a non-empty string, got ${got}`,
    );
  }
  return value;
}

/** The URL as it may appear in a message: its password (a secret) replaced. */
function masked(url: URL): string {
  if (url.password === "") return url.href;
  const copy = new URL(url.href);
  copy.password = "***";
  return copy.href;
}
