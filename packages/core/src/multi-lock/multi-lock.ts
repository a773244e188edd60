import type { ClientContext } from "../client-context.ts";
import type { HandleOwner } from "../ids.ts";
import { AcquireTimeoutError } from "../errors.ts";
import { now } from "../engine/clock.ts";
import { provisionalMs } from "../lease/resumed-lease.ts";
import { withHeld } from "../lease/with-held.ts";
import type { AcquireOptions } from "../lock/types.ts";
import { validateFunction } from "../validate.ts";
import { acquireMulti } from "./acquire.ts";
import { HeldMultiLockView } from "./held-multi-lock.ts";
import { MultiLockHoldState } from "./hold-state.ts";
import { makeMultiRef, type MultiRef } from "./multi-ref.ts";
import { resolveHoldOptions } from "../lease/hold-options.ts";
import { parseMultiLease } from "./resume.ts";
import type { HeldMultiLock, SerializedMultiLease } from "./types.ts";

/**
 * A handle on several reentrant locks taken together, all or none (Redisson's `RedissonMultiLock`).
 * The names are the Lock's own, so a multi-lock excludes plain `client.lock(name)` holders.
 * Names sharing a hash tag (`"{order:42}:items"`, `"{order:42}:payment"`) are taken by one
 * script in one request; other names by one request per tag, in a fixed order, and an attempt
 * that finds a later group busy gives back the earlier ones before it sleeps.
 * @example
 * const both = edgelock.multiLock(["account:alice", "account:bob"]);
 * await both.withLock(async (held) => transfer(held.fences), { waitMs: 5_000 });
 */
export class MultiLock {
  readonly #ref: MultiRef;
  readonly #holds = new Map<string, MultiLockHoldState>();

  /** @internal use `client.multiLock(names)` */
  constructor(ctx: ClientContext, names: readonly string[], owner: HandleOwner) {
    this.#ref = makeMultiRef(ctx, names, owner);
  }

  /** Deduplicated names in acquisition order: by hash tag, then by key. */
  get names(): readonly string[] {
    return this.#ref.names;
  }

  /** Requests one attempt costs: one per distinct hash tag among the names (1 when they share one). */
  get slotGroups(): number {
    return this.#ref.groups.length;
  }

  /**
   * Acquires every name, waiting up to `waitMs` (default 0: one attempt) for all of them at once.
   * @throws AcquireTimeoutError when not all acquired in time (nothing is left held); AbortedError when `signal` aborts.
   */
  async acquire(options?: AcquireOptions): Promise<HeldMultiLock> {
    const opts = resolveHoldOptions(options, this.#ref.ctx, { waitMs: 0 });
    const { held, attempts, waitedMs, hint } = await acquireMulti(this.#ref, this.#holds, opts);
    if (held) return held;
    throw new AcquireTimeoutError(this.#ref.label, Math.round(waitedMs), attempts, hint);
  }

  /**
   * `acquire` that answers `null` (and nothing held) instead of throwing when not every name
   * was acquired within `waitMs`. Without `waitMs`, one attempt that never waits.
   */
  async tryAcquire(options?: AcquireOptions): Promise<HeldMultiLock | null> {
    const opts = resolveHoldOptions(options, this.#ref.ctx, { waitMs: 0 });
    return (await acquireMulti(this.#ref, this.#holds, opts)).held;
  }

  /**
   * Runs `fn` while holding every name, and releases them afterwards (also when `fn` throws).
   * Rejects with the `LeaseLostError` when the lease was lost while `fn` ran (its value is
   * dropped: the work may not have been exclusive). When `fn` throws, rejects with `fn`'s own
   * error, unchanged (never wrapped; a loss is then in `held.signal.reason` and the `lost`
   * event). The release never replaces either.
   * @throws what `acquire` throws.
   */
  async withLock<T>(
    fn: (held: HeldMultiLock) => Promise<T> | T,
    options?: AcquireOptions,
  ): Promise<T> {
    validateFunction("fn", fn);
    return withHeld(await this.acquire(options), fn);
  }

  /**
   * Takes over a lease serialised by `held.toJSON()` to extend or release it. Trusted from its
   * first confirmed renewal, as a resumed Lock: until then its signal aborts at `expiresAt` less
   * twice `clockErrorMs`, and never later than `leaseMs` from now; `extend()` and `release()`
   * still reach the server after that. The same as `client.resumeHold(lease)`.
   */
  resume(lease: SerializedMultiLease): HeldMultiLock {
    const { ctx } = this.#ref;
    const parsed = parseMultiLease(lease, ctx.prefix, this.#ref.names);
    const ref: MultiRef = { ...this.#ref, owner: parsed.owner };
    const sentAt = now();
    const init = {
      fences: [...parsed.fences],
      versions: parsed.versions ? [...parsed.versions] : parsed.fences.map(() => 0),
      sentAt,
      deadline: sentAt + provisionalMs(ctx, parsed),
      leaseMs: parsed.leaseMs,
      keepAlive: false,
      maxHoldMs: undefined,
      provisional: true,
    };
    return new HeldMultiLockView(new MultiLockHoldState(ref, init, () => undefined));
  }
}
