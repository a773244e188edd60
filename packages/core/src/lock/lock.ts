import type { ClientContext } from "../client-context.ts";
import type { HandleOwner } from "../ids.ts";
import { now } from "../engine/clock.ts";
import { newOperation } from "../engine/operation.ts";
import { AcquireTimeoutError } from "../errors.ts";
import { lockKeys } from "../keys.ts";
import { provisionalMs } from "../lease/resumed-lease.ts";
import { checkLockFields } from "../serialized-hold/lock-fields.ts";
import { parseHoldFor } from "../serialized-hold/parse-for.ts";
import { withHeld } from "../lease/with-held.ts";
import { validateFunction } from "../validate.ts";
import { resolveHoldOptions } from "../lease/hold-options.ts";
import { acquireLock } from "./acquire.ts";
import { HeldLockView } from "./held-lock.ts";
import { LockHoldState } from "./hold-state.ts";
import { callsOf } from "./calls.ts";
import type { LockShape } from "./lock-shape.ts";
import type { LockRef } from "./lock-ref.ts";
import type { AcquireOptions, HeldLock, SerializedLease } from "./types.ts";

/**
 * A handle on one reentrant lock (Redisson's `RLock`), with its own random owner id: acquiring
 * again on the same handle nests. Handles are cheap; make one per logical holder (per request),
 * never one per module, or concurrent requests in one isolate would share ownership.
 */
export class Lock {
  readonly #ref: LockRef;
  readonly #holds = new Map<number, LockHoldState>();

  /** @internal use `client.lock(name)`; `shape` lets a lock-shaped primitive run its own scripts */
  constructor(ctx: ClientContext, name: string, owner: HandleOwner, shape?: LockShape) {
    const who = { owner: owner.id, ownerShared: owner.shared };
    this.#ref = shape
      ? { ctx, name, ...who, keys: shape.keys, calls: shape.calls }
      : { ctx, name, ...who, keys: lockKeys(ctx.prefix, name) };
  }

  get name(): string {
    return this.#ref.name;
  }

  /**
   * Acquires the lock, waiting up to `waitMs` (default 0: one attempt).
   * @throws AcquireTimeoutError when not acquired in time (with the last busy answer as `hint`);
   * AbortedError when `signal` aborts.
   * @example
   * await using held = await edgelock.lock("orders:42").acquire({ waitMs: 5_000 });
   */
  async acquire(options?: AcquireOptions): Promise<HeldLock> {
    const opts = resolveHoldOptions(options, this.#ref.ctx, { waitMs: 0 });
    const { held, attempts, waitedMs, hint } = await acquireLock(this.#ref, this.#holds, opts);
    if (held) return held;
    throw new AcquireTimeoutError(this.name, Math.round(waitedMs), attempts, hint);
  }

  /**
   * Like `acquire`, but not getting the lock is a value, not an error (Redisson's
   * `tryLock(waitTime, leaseTime)`): the hold, or `null` when the lock is still busy after
   * `waitMs`. Without `waitMs`, one attempt that never waits and never queues.
   * @throws AbortedError when `signal` aborts; BackendError / OutcomeUnknownError as `acquire`.
   * @example
   * const held = await lock.tryAcquire({ waitMs: 2_000 });
   * if (held === null) return new Response("busy", { status: 409 });
   */
  async tryAcquire(options?: AcquireOptions): Promise<HeldLock | null> {
    const opts = resolveHoldOptions(options, this.#ref.ctx, { waitMs: 0 });
    return (await acquireLock(this.#ref, this.#holds, opts)).held;
  }

  /**
   * Runs `fn` while holding the lock, and releases it afterwards (also when `fn` throws).
   * Rejects with the `LeaseLostError` when the lease was lost while `fn` ran (its value is
   * dropped: the work may not have been exclusive). When `fn` throws, rejects with `fn`'s own
   * error, unchanged (never wrapped; a loss is then in `held.signal.reason` and the `lost`
   * event). The release never replaces either.
   * @throws what `acquire` throws.
   */
  async withLock<T>(fn: (held: HeldLock) => Promise<T> | T, options?: AcquireOptions): Promise<T> {
    validateFunction("fn", fn);
    return withHeld(await this.acquire(options), fn);
  }

  async isLocked(): Promise<boolean> {
    return (await callsOf(this.#ref).inspect(this.#ref)).locked;
  }

  /** Holds of this handle's owner (0 when it does not hold the lock). */
  async holdCount(): Promise<number> {
    return (await callsOf(this.#ref).inspect(this.#ref)).mine;
  }

  /** Remaining lease of whoever holds the lock, ms; 0 when it is free. */
  async remainingMs(): Promise<number> {
    const info = await callsOf(this.#ref).inspect(this.#ref);
    return info.locked ? info.pttl : 0;
  }

  /** Deletes the lock whoever holds it (an operator's tool; the holder's signal aborts at its next renewal). */
  async forceUnlock(): Promise<boolean> {
    return callsOf(this.#ref).forceUnlock(this.#ref, newOperation());
  }

  /**
   * Takes over a lease serialised by `held.toJSON()` (in another invocation, or a keeper) to extend
   * or release it. Its `expiresAt` was read on another machine's wall clock, so the resumed hold
   * is trusted from its first confirmed renewal: until then its signal aborts at `expiresAt` less
   * twice the clock error bound (each machine may be off by `clockErrorMs`), and never later than
   * `leaseMs` from now; `extend()` and `release()` still reach the server after that. The same
   * as `client.resumeHold(lease)`.
   */
  resume(lease: SerializedLease): HeldLock {
    const { ctx } = this.#ref;
    const want = { ...callsOf(this.#ref).serializedAs, prefix: ctx.prefix, name: this.name };
    const parsed = parseHoldFor(lease, "lease", want, checkLockFields);
    const ref: LockRef = { ...this.#ref, owner: parsed.owner, ownerShared: true };
    const hold = new LockHoldState(
      ref,
      {
        fence: parsed.fence,
        sentAt: now(),
        confirmedMs: provisionalMs(ctx, parsed),
        leaseMs: parsed.leaseMs,
        keepAlive: false,
        maxHoldMs: undefined,
        version: parsed.version ?? 0,
        provisional: true,
      },
      () => undefined,
    );
    return new HeldLockView(hold);
  }
}
