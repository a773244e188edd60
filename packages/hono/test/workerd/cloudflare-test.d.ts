// The part of `cloudflare:test` these tests use, typed structurally (the full
// @cloudflare/workers-types would replace the DOM lib the core's sources compile against).
declare module "cloudflare:test" {
  export const env: { UPSTASH_REDIS_REST_URL: string; UPSTASH_REDIS_REST_TOKEN: string };
  export const SELF: { fetch(input: string, init?: RequestInit): Promise<Response> };
}
