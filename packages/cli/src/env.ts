import { CliError } from "./cli-error.ts";

const VARIABLES = {
  UPSTASH_REDIS_REST_URL: "the REST URL of your database (Upstash, or edgelock's rest-server)",
  UPSTASH_REDIS_REST_TOKEN: "the REST token of that database",
} as const;

/** `{ url, token }` from the environment; a missing variable is named, with what it should hold. */
export function restFromEnv(env: Readonly<Record<string, string | undefined>>): {
  url: string;
  token: string;
} {
  for (const [name, what] of Object.entries(VARIABLES)) {
    if (!env[name]) throw new CliError(`${name} is not set: export it with ${what}`, 2);
  }
  const url = env["UPSTASH_REDIS_REST_URL"] ?? "";
  if (!/^https?:\/\//.test(url))
    throw new CliError(`UPSTASH_REDIS_REST_URL must be an http(s) URL, got "${url}"`, 2);
  return { url, token: env["UPSTASH_REDIS_REST_TOKEN"] ?? "" };
}
