import type { KeepableHold } from "./keepable-hold.ts";

/**
 * The wire protocol between a lease holder and the Durable Object keeper. One object per lease;
 * every request is `POST {base}/v1/leases/{objectName}/{op}` with `Authorization: Bearer
 * <secret>` and a JSON body. The same shape travels over a Durable Object binding and over HTTPS.
 */
export type KeeperOp = "keep" | "heartbeat" | "release" | "status";

export const KEEPER_OPS: readonly KeeperOp[] = Object.freeze([
  "keep",
  "heartbeat",
  "release",
  "status",
]);

/** Path prefix of every keeper request. */
export const KEEPER_PATH_PREFIX = "/v1/leases/";

/** Options of a hand-over (`keep`). Times are integer milliseconds. */
export interface KeepOptions {
  /**
   * Mandatory: the keeper stops renewing this long after the hand-over, so a dead holder can
   * never keep a lock forever. The last renewal is cut so the lease ends exactly then.
   */
  readonly maxHoldMs: number;
  /**
   * When set, the keeper stops renewing if no `heartbeat()` arrives for this long (the holder is
   * presumed gone). @default undefined (no heartbeat required; `maxHoldMs` still bounds the hold)
   */
  readonly heartbeatMs?: number;
  /**
   * Lease the keeper renews to, every lease/3. Alarms are at-least-once and may be up to a minute
   * late during a failover, so the default survives a 60 s delay: renewal at 40 s, deadline at 120 s.
   * @default 120_000
   */
  readonly leaseMs?: number;
}

/**
 * Body of every request: the serialised hold is the holder's proof, checked against the stored
 * one. Any leased kind (`KeepableHold`); a quorum-lock or semaphore hold is refused.
 */
export interface KeeperRequestBody extends Partial<KeepOptions> {
  readonly lease: KeepableHold;
}

/**
 * - `kept`: the keeper renews the lease.
 * - `released`: released through the keeper (also when a release raced a renewal).
 * - `lost`: a renewal found the hold gone, or renewals failed until the lease ran out.
 * - `ended`: the keeper stopped on purpose (`max-hold`, `missed-heartbeat`, or the release's
 *   outcome is unknown); the lease runs out on its own.
 * - `unknown`: this object keeps no such lease (never handed over, or a different lease).
 */
export type KeeperState = "kept" | "released" | "lost" | "ended" | "unknown";

export type KeeperReason =
  "gone" | "renew-failed" | "max-hold" | "missed-heartbeat" | "release-unknown" | "not-held";

/** What the keeper knows about one lease. */
export interface KeeperStatus {
  readonly state: KeeperState;
  readonly reason?: KeeperReason;
  /** The hold's name and fence (every kind but the multi-lock). */
  readonly name?: string;
  readonly fence?: number;
  /** A multi-lock's names and their fences, in its order. */
  readonly names?: readonly string[];
  readonly fences?: readonly number[];
  /** Renewals the keeper confirmed for this lease. */
  readonly renewals: number;
  /** Wall-clock ms (epoch) until which the last confirmed renewal holds the lease. */
  readonly expiresAt?: number;
  /** Wall-clock ms (epoch) of the keeper's next scheduled alarm, when it keeps the lease. */
  readonly nextAlarmAt?: number;
}
