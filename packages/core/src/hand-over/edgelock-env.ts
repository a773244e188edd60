/**
 * The environment variables the adapters' `fromEnv` helpers read, on every runtime: the Upstash
 * REST credentials, and the lease keeper's URL and shared secret. All optional here; each helper
 * checks those it needs and names the one that is missing.
 */
export interface EdgelockEnv {
  readonly UPSTASH_REDIS_REST_URL?: string | undefined;
  readonly UPSTASH_REDIS_REST_TOKEN?: string | undefined;
  readonly EDGELOCK_KEEPER_SECRET?: string | undefined;
  readonly EDGELOCK_KEEPER_URL?: string | undefined;
}
