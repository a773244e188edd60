// `@edgelock/core/lock-polling`: the reentrant Lock alone, without push, for the smallest Worker
// bundles where waiting on Upstash's stream is not wanted (or not offered): the same as
// `@edgelock/core/lock` but for `createLockClient`, whose waiters only poll (the just-in-time
// strategy, from the server's hold statistics). A bundler leaves the push code out.
import type { ClientOptions } from "./client-options.ts";
import { lockClientWith, type LockClient } from "./lock-client.ts";

export * from "./lock-entry.ts";

/**
 * `createLockClient` of `@edgelock/core/lock`, without push: its waiters poll and never open a
 * stream. Same options (`push.refusedBackoffMs` is validated and has nothing to do).
 * @example
 * import { createLockClient } from "@edgelock/core/lock-polling";
 * const edgelock = createLockClient({ redis: { url: env.UPSTASH_REDIS_REST_URL, token: env.UPSTASH_REDIS_REST_TOKEN } });
 */
export function createLockClient(options: ClientOptions): LockClient {
  return lockClientWith(options, undefined);
}
