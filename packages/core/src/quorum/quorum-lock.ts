import { now } from "../engine/clock.ts";
import { provisionalMs } from "../lease/resumed-lease.ts";
import { withHeld } from "../lease/with-held.ts";
import { checkLeaseWithinQuarantine } from "../quarantine/quarantine.ts";
import type { EdgelockClient } from "../client.ts";
import { AcquireTimeoutError, InvalidArgumentError } from "../errors.ts";
import type { AcquireOptions } from "../lock/types.ts";
import { resolveHoldOptions } from "../lease/hold-options.ts";
import { validateFunction, validateName, validateObject } from "../validate.ts";
import { acquireQuorum } from "./acquire.ts";
import { quorumDatabase } from "./calls.ts";
import { HeldQuorumLockView } from "./held-quorum-lock.ts";
import { QuorumHoldState } from "./hold-state.ts";
import { checkLeaseAgainstTimeout, driftMs, majorityOf, type QuorumRef } from "./quorum-ref.ts";
import { parseQuorumLease } from "./resume.ts";
import {
  DEFAULT_QUORUM_OPTIONS,
  type HeldQuorumLock,
  type QuorumLockOptions,
  type SerializedQuorumLease,
} from "./types.ts";

/** Most databases one quorum lock spans. */
export const MAX_QUORUM_DATABASES = 31;

/**
 * A lock held on a majority (⌊N/2⌋ + 1) of N independent databases, each reached through its own
 * client (Redlock; Redisson's `RedissonRedLock`). Read the caveats in docs/primitives.md: the
 * validity is measured on this process' clock, and only the fencing token protects a resource
 * against a holder paused past its validity.
 * @example
 * const lock = quorumLock([edgelockA, edgelockB, edgelockC], "payouts");
 * await lock.withLock(async (held) => payout({ fence: held.fence, signal: held.signal }), { waitMs: 2_000 });
 */
export function quorumLock(
  clients: readonly EdgelockClient[],
  name: string,
  options?: QuorumLockOptions,
): QuorumLock {
  if (!Array.isArray(clients) || clients.length === 0)
    throw new InvalidArgumentError("clients", "must be a non-empty array of edgelock clients");
  if (clients.length > MAX_QUORUM_DATABASES)
    throw new InvalidArgumentError("clients", `must hold at most ${MAX_QUORUM_DATABASES} clients`);
  clients.forEach((c, i) => {
    if (
      typeof c !== "object" ||
      c === null ||
      typeof (c as EdgelockClient).context?.backend?.command !== "function"
    ) {
      throw new InvalidArgumentError(`clients[${i}]`, "must be a client made by createClient()");
    }
    if (clients.indexOf(c) !== i)
      throw new InvalidArgumentError(
        `clients[${i}]`,
        "appears twice: each database must count once",
      );
  });
  validateName("name", name);
  const o = validateObject("options", options) as QuorumLockOptions;
  const d = DEFAULT_QUORUM_OPTIONS;
  const driftFactor = o.driftFactor ?? d.driftFactor;
  if (
    typeof driftFactor !== "number" ||
    !Number.isFinite(driftFactor) ||
    driftFactor < 0 ||
    driftFactor >= 0.5
  ) {
    throw new InvalidArgumentError(
      "options.driftFactor",
      `must be a number in [0, 0.5), got ${String(driftFactor)}`,
    );
  }
  const timeout = o.requestTimeoutMs;
  if (
    timeout !== undefined &&
    (typeof timeout !== "number" || !Number.isInteger(timeout) || timeout < 1)
  ) {
    throw new InvalidArgumentError(
      "options.requestTimeoutMs",
      `must be a positive integer number of milliseconds, got ${String(timeout)}`,
    );
  }
  const ref: QuorumRef = {
    name,
    dbs: clients.map((c, i) => quorumDatabase(i, c.context, name)),
    majority: majorityOf(clients.length),
    driftFactor,
    requestTimeoutMs: timeout,
    ctx: clients[0]!.context,
  };
  return new QuorumLock(ref);
}

/** A handle on one quorum lock. Not re-entrant: every acquisition has its own random token. */
export class QuorumLock {
  readonly #ref: QuorumRef;

  /** @internal use `quorumLock(clients, name)` */
  constructor(ref: QuorumRef) {
    this.#ref = ref;
  }

  get name(): string {
    return this.#ref.name;
  }
  /** N, the number of databases. */
  get databases(): number {
    return this.#ref.dbs.length;
  }
  /** ⌊N/2⌋ + 1, the databases that must agree. */
  get majority(): number {
    return this.#ref.majority;
  }

  /**
   * Acquires on a majority, retrying with random delays up to `waitMs` (default 0: one attempt).
   * @throws AcquireTimeoutError when others held it throughout; QuorumError when too few databases
   * answered or the grant came too late (nothing is left held); AbortedError when `signal` aborts.
   */
  async acquire(options?: AcquireOptions): Promise<HeldQuorumLock> {
    const { held, attempts, waitedMs, hint } = await acquireQuorum(
      this.#ref,
      this.#resolve(options),
    );
    if (held) return held;
    throw new AcquireTimeoutError(this.name, Math.round(waitedMs), attempts, hint);
  }

  /**
   * `acquire` that answers `null` instead of throwing when others held it throughout `waitMs`
   * (without `waitMs`: one attempt). Throws `QuorumError` when no majority answered.
   */
  async tryAcquire(options?: AcquireOptions): Promise<HeldQuorumLock | null> {
    return (await acquireQuorum(this.#ref, this.#resolve(options))).held;
  }

  /**
   * Runs `fn` while holding the lock, and releases it afterwards (also when `fn` throws).
   * Rejects with the `LeaseLostError` when the lease was lost while `fn` ran (its value is
   * dropped: the work may not have been exclusive). When `fn` throws, rejects with `fn`'s own
   * error, unchanged (never wrapped; a loss is then in `held.signal.reason` and the `lost`
   * event). The release never replaces either.
   * @throws what `acquire` throws.
   */
  async withLock<T>(
    fn: (held: HeldQuorumLock) => Promise<T> | T,
    options?: AcquireOptions,
  ): Promise<T> {
    validateFunction("fn", fn);
    return withHeld(await this.acquire(options), fn);
  }

  /**
   * Takes over a lease serialised by `held.toJSON()` (in another invocation, or a keeper) to
   * extend or release it. Its `expiresAt` was read on another machine's wall clock, so the
   * resumed hold is trusted from its first confirmed renewal on a majority, as every kind of
   * hold (lease/resumed-lease.ts): until then each database counts `expiresAt` less twice that
   * database's client's `clockErrorMs`, and never more than the carried lease less the drift
   * allowance from now; `extend()` and `release()` still reach the databases after that.
   */
  resume(lease: SerializedQuorumLease): HeldQuorumLock {
    const ref = this.#ref;
    const parsed = parseQuorumLease(lease, ref);
    const carried = {
      expiresAt: parsed.expiresAt,
      leaseMs: parsed.leaseMs - driftMs(ref, parsed.leaseMs),
    };
    const hold = new QuorumHoldState(ref, {
      token: parsed.token,
      fence: parsed.fence,
      sentAt: now(),
      validMs: ref.dbs.map((db) => provisionalMs(db.ctx, carried)),
      provisional: true,
      leaseMs: parsed.leaseMs,
      keepAlive: false,
      maxHoldMs: undefined,
    });
    return new HeldQuorumLockView(hold);
  }

  #resolve(options: unknown) {
    const opts = resolveHoldOptions(options, this.#ref.ctx, { waitMs: 0 });
    // every database runs its own quarantine: the lease must fit the shortest
    for (const db of this.#ref.dbs)
      checkLeaseWithinQuarantine(db.ctx, "options.leaseMs", opts.leaseMs);
    checkLeaseAgainstTimeout(this.#ref, "options.leaseMs", opts.leaseMs);
    if (opts.leaseMs <= driftMs(this.#ref, opts.leaseMs))
      throw new InvalidArgumentError(
        "options.leaseMs",
        "leaves no validity after the drift allowance",
      );
    return opts;
  }
}
