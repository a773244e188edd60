// The Lock-only entry: a Worker that uses the middleware with `createLockClient` stays Lock-only.
import type { AcquireOptions, HeldLock, LockClient } from "@edgelock/core/lock";
import { InvalidArgumentError, validateObject } from "@edgelock/core/options";
import type { Context, Env, MiddlewareHandler } from "hono";
import { lockedResponse } from "./locked-response.ts";
import {
  DEFAULT_LOCK_MIDDLEWARE,
  type LockMiddlewareOptions,
  type LockVariables,
} from "./options.ts";
import { releaseAfterBody } from "./release-after-body.ts";

/**
 * Holds the lock named by the request for the handler's whole response: 423 with `Retry-After`
 * when it stays busy for `waitMs`; `c.get("lockSignal")` aborts if the lease is lost; released
 * after the response — after the last chunk of a streamed body, also when the handler throws.
 * @example
 * app.post("/orders/:id/pay", lockMiddleware({ client, name: (c) => `orders:${c.req.param("id")}` }), handler);
 */
export function lockMiddleware<E extends Env = Env>(
  options: LockMiddlewareOptions<E>,
): MiddlewareHandler<E & { Variables: LockVariables }> {
  const o = checkOptions(options);
  const acquireOptions: AcquireOptions = {
    waitMs: o.waitMs ?? DEFAULT_LOCK_MIDDLEWARE.waitMs,
    ...(o.leaseMs !== undefined && { leaseMs: o.leaseMs }),
    ...(o.maxHoldMs !== undefined && { maxHoldMs: o.maxHoldMs }),
  };
  return async (c, next) => {
    const ctx = c as unknown as Context<E>;
    const client: LockClient = typeof o.client === "function" ? o.client(ctx) : o.client;
    const lock = client.lock(await o.name(ctx)); // one handle (one owner) per request
    let held: HeldLock;
    try {
      held = await lock.acquire(acquireOptions);
    } catch (error) {
      // A given-up wait leaves its queue entry in the background: on Workers that cleanup must
      // outlive the response, or the lock stays reserved for a waiter that is gone.
      keepAlive(c, client.settled());
      if ((error as { code?: string }).code === "ACQUIRE_TIMEOUT")
        return lockedResponse(ctx, lock, o, error);
      throw error;
    }
    c.set("lock", held);
    c.set("lockSignal", held.signal);
    // Dispose never throws: a failed release is reported through the client's onEvent and held.signal.
    const release = () => keepAlive(c, Promise.resolve(held[Symbol.asyncDispose]()));
    let releasesLater = false;
    try {
      await next();
      const body = c.res.body;
      if (body && !c.error) {
        c.res = new Response(
          releaseAfterBody(body, () => void release()),
          c.res,
        );
        releasesLater = true;
      }
    } finally {
      // After an error or with no body the response is complete now; without waitUntil, wait here.
      if (!releasesLater) {
        const { work, handedOff } = release();
        if (!handedOff) await work;
      }
    }
  };
}

/** On Workers the release must outlive the response: hand it to `waitUntil` when there is one. */
function keepAlive(c: Context, work: Promise<void>): { work: Promise<void>; handedOff: boolean } {
  try {
    c.executionCtx.waitUntil(work);
    return { work, handedOff: true };
  } catch {
    // No ExecutionContext (Node, app.request in tests): the caller awaits where it matters.
    return { work, handedOff: false };
  }
}

function checkOptions<E extends Env>(options: LockMiddlewareOptions<E>): LockMiddlewareOptions<E> {
  const o = validateObject("options", options) as Partial<LockMiddlewareOptions<E>>;
  if (typeof o.name !== "function")
    throw new InvalidArgumentError("options.name", "must be a function of the request context");
  if (
    typeof o.client !== "function" &&
    typeof (o.client as LockClient | undefined)?.lock !== "function"
  ) {
    throw new InvalidArgumentError(
      "options.client",
      "must be an edgelock client or a function returning one",
    );
  }
  return o as LockMiddlewareOptions<E>;
}
