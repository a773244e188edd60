import { ownerOf, pendingOf, resolveContext, type ClientContext } from "./client-context.ts";
import { PUSH, type PushKit } from "./push-kit.ts";
import type { ClientOptions } from "./client-options.ts";
import { Lock } from "./lock/lock.ts";
import { validateName } from "./validate.ts";
import type { LockHandleOptions } from "./client.ts";

/** A client that makes only `Lock` handles: what `@edgelock/core/lock` offers for small bundles. */
export interface LockClient {
  /** A handle on the reentrant lock `name`, with its own owner id (as `createClient().lock`). */
  lock(name: string, options?: LockHandleOptions): Lock;
  /** Resolves when background work (abandoned acquires, failed-dispose cleanups) has settled. */
  settled(): Promise<void>;
  /** @internal */
  readonly context: ClientContext;
}

/**
 * `createClient` for Workers that need only the reentrant Lock: same options, same Lock, but a
 * bundler can leave every other primitive out.
 * @example
 * import { createLockClient } from "@edgelock/core/lock";
 * const edgelock = createLockClient({ redis: Redis.fromEnv(env) });
 * await edgelock.lock("orders:42").withLock(async (held) => charge(held.fence), { waitMs: 5_000 });
 */
export function createLockClient(options: ClientOptions): LockClient {
  return lockClientWith(options, PUSH);
}

/** A Lock-only client with the given push (`undefined`: it polls); see `createLockClient`. */
export function lockClientWith(options: ClientOptions, push: PushKit | undefined): LockClient {
  const context = resolveContext(options, push);
  return {
    context,
    lock(name, handleOptions) {
      validateName("name", name);
      return new Lock(context, name, ownerOf(handleOptions));
    },
    settled: () => pendingOf(context),
  };
}
