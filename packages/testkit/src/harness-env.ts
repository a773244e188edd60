/** What the global setup provides to every test of a project (see `harness()`). */
export interface HarnessEnv {
  /** `redis://127.0.0.1:PORT`: a redis-server the global setup started, or `REDIS_URL`. */
  readonly redisUrl: string;
  /** `http://127.0.0.1:PORT`: a rest-server the global setup started, or `UPSTASH_REDIS_REST_URL`. */
  readonly restUrl: string;
  readonly restToken: string;
  /** False when `restUrl` is a real Upstash database (no control endpoints). */
  readonly faultsEnabled: boolean;
  /** True when `REDIS_URL` or `UPSTASH_REDIS_REST_*` were given. */
  readonly external: boolean;
}

/** The key under which the global setup provides the `HarnessEnv`. */
export const HARNESS_KEY = "edgelock";

declare module "vitest" {
  export interface ProvidedContext {
    edgelock: HarnessEnv;
  }
}
