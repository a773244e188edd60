import type { ClientContext } from "../client-context.ts";
import { AcquireTimeoutError, PermitsRefusedError } from "../errors.ts";
import { newOperation } from "../engine/operation.ts";
import { permitSemaphoreKeys } from "../keys.ts";
import { now } from "../engine/clock.ts";
import { provisionalMs } from "../lease/resumed-lease.ts";
import { checkPermitFields } from "../serialized-hold/kind-fields.ts";
import { parseHoldFor } from "../serialized-hold/parse-for.ts";
import { withHeld } from "../lease/with-held.ts";
import { MAX_PERMITS } from "../semaphore/acquire.ts";
import { validateFunction, validateInteger, validateName } from "../validate.ts";
import { acquirePermit } from "./acquire.ts";
import { HeldPermit } from "./held-permit.ts";
import { runChange, runInspect, runRelease, type PermitSemaphoreRef } from "./calls.ts";
import type {
  Permit,
  PermitAcquireOptions,
  PermitSemaphoreStatus,
  SerializedPermit,
} from "./types.ts";

/**
 * A semaphore whose permits each have their own id and lease (Redisson's
 * `RPermitExpirableSemaphore`). An expired permit returns to the pool by the server's clock; a
 * permit without `leaseMs` is kept alive by the keeper until released. Waiters are served FIFO.
 * @example
 * const slots = edgelock.permitExpirableSemaphore("gpu");
 * await slots.trySetPermits(4);
 * await using permit = await slots.acquire({ waitMs: 5_000, leaseMs: 60_000 });
 * await render({ signal: permit.signal, fence: permit.fence });
 */
export class PermitExpirableSemaphore {
  readonly #ref: PermitSemaphoreRef;

  /** @internal use `client.permitExpirableSemaphore(name)` */
  constructor(ctx: ClientContext, name: string) {
    this.#ref = { ctx, name, keys: permitSemaphoreKeys(ctx.prefix, name) };
  }

  get name(): string {
    return this.#ref.name;
  }

  /** Sets the total when the semaphore is not set yet; `false` when it already was. */
  async trySetPermits(permits: number): Promise<boolean> {
    validateInteger("permits", permits, 0, MAX_PERMITS);
    return (await runChange(this.#ref, "set", permits, newOperation())).applied;
  }

  /** Changes the total by `delta` (negative allowed). @throws PermitsRefusedError below zero. */
  async addPermits(delta: number): Promise<void> {
    validateInteger("delta", delta, -MAX_PERMITS, MAX_PERMITS);
    const result = await runChange(this.#ref, "add", delta, newOperation());
    if (!result.applied) throw new PermitsRefusedError(this.name, "negative-total", result);
  }

  /**
   * Takes one permit, waiting up to `waitMs` (default 0: one attempt) in the FIFO queue.
   * @throws AcquireTimeoutError when not acquired in time; AbortedError when `signal` aborts.
   */
  acquire(options?: PermitAcquireOptions): Promise<Permit> {
    return acquirePermit(this.#ref, options);
  }

  /**
   * `acquire` that answers `null` instead of throwing when no permit was acquired within
   * `waitMs`. Without `waitMs`, one attempt that never waits and never overtakes queued waiters.
   */
  async tryAcquire(options?: PermitAcquireOptions): Promise<Permit | null> {
    try {
      return await acquirePermit(this.#ref, options);
    } catch (error) {
      if (error instanceof AcquireTimeoutError) return null;
      throw error;
    }
  }

  /**
   * Runs `fn` while holding a permit, and releases it afterwards (also when `fn` throws).
   * Rejects with the `LeaseLostError` when the lease was lost while `fn` ran (its value is
   * dropped: the work may not have been exclusive). When `fn` throws, rejects with `fn`'s own
   * error, unchanged (never wrapped; a loss is then in `held.signal.reason` and the `lost`
   * event). The release never replaces either.
   * @throws what `acquire` throws.
   */
  async withPermit<T>(
    fn: (permit: Permit) => Promise<T> | T,
    options?: PermitAcquireOptions,
  ): Promise<T> {
    validateFunction("fn", fn);
    return withHeld(await this.acquire(options), fn);
  }

  /** Releases a permit by id (Redisson's `tryRelease`): `false` when it was released or expired. */
  async tryRelease(permitId: string): Promise<boolean> {
    validateName("permitId", permitId);
    return (await runRelease(this.#ref, permitId, newOperation(), true)).released;
  }

  /** Permits free right now: the total minus the permits whose lease has not run out. */
  async availablePermits(): Promise<number> {
    return (await runInspect(this.#ref)).available;
  }

  async status(): Promise<PermitSemaphoreStatus> {
    return runInspect(this.#ref);
  }

  /**
   * Takes over a permit serialised by `permit.toJSON()` to extend or release it. Trusted from its
   * first confirmed renewal, as a resumed Lock: until then its signal aborts at `expiresAt` less
   * twice `clockErrorMs`, and never later than `leaseMs` from now; `extend()` and `release()`
   * still reach the server after that. The same as `client.resumeHold(permit)`.
   */
  resume(permit: SerializedPermit): Permit {
    const want = {
      kind: "permit-expirable-semaphore",
      prefix: this.#ref.ctx.prefix,
      name: this.name,
    } as const;
    const p = parseHoldFor(permit, "permit", want, checkPermitFields);
    return new HeldPermit(this.#ref, {
      id: p.id,
      fence: p.fence,
      sentAt: now(),
      confirmedMs: provisionalMs(this.#ref.ctx, p),
      leaseMs: p.leaseMs,
      keepAlive: false,
      maxHoldMs: undefined,
      version: p.version ?? 0,
      provisional: true,
    });
  }
}
