import type { HeldLock, LockClient } from "@edgelock/core/lock";
import type { Context, Env } from "hono";

/** What the middleware puts on the context: `c.get("lock")`, `c.get("lockSignal")`. */
export interface LockVariables {
  /** The hold, for its fencing token (`c.get("lock").fence`). Released by the middleware. */
  lock: HeldLock;
  /** Aborts (reason: `LeaseLostError`) if the lease is lost while the handler runs: pass it to your I/O. */
  lockSignal: AbortSignal;
}

/** Options of `lockMiddleware`. Times are integer milliseconds. */
export interface LockMiddlewareOptions<E extends Env = Env> {
  /**
   * The edgelock client (`createClient`, or `createLockClient` from `@edgelock/core/lock` for the
   * smallest Worker), or a function returning one per request (e.g. built from `c.env`).
   */
  readonly client: LockClient | ((c: Context<E>) => LockClient);
  /** The lock's name, from the request: `(c) => \`orders:${c.req.param("id")}\``. */
  readonly name: (c: Context<E>) => string | Promise<string>;
  /** How long a request waits for the lock before the 423. @default 5_000 */
  readonly waitMs?: number;
  /** Fixed lease, never renewed. @default undefined (the client's lease, kept alive by its keeper) */
  readonly leaseMs?: number;
  /** With a kept-alive lease: stop renewing after this long. @default undefined (no bound) */
  readonly maxHoldMs?: number;
  /**
   * `Retry-After` of the 423, in seconds, or a function of when the lock is likely free (ms):
   * from the busy answer's hold statistics when the core reports them, else the holder's
   * remaining lease.
   * @default that time rounded up, at least 1 s
   */
  readonly retryAfterSeconds?: number | ((freeInMs: number) => number);
  /** Builds the 423 response. @default JSON `{ error: "locked", name }` */
  readonly onLocked?: (c: Context<E>, info: LockedInfo) => Response | Promise<Response>;
}

export interface LockedInfo {
  readonly name: string;
  readonly retryAfterSeconds: number;
}

export const DEFAULT_LOCK_MIDDLEWARE = Object.freeze({ waitMs: 5_000 });
