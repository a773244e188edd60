import type { RedisInput } from "./backend/resolve.ts";
import type { LockEvent } from "./events.ts";
import type { QuarantineScope } from "./keys.ts";
import type { Keeper } from "./lease/keeper.ts";
import type { WaitStrategy } from "./wait/strategy.ts";

/** Options of `createClient`. Times are integer milliseconds. */
export interface ClientOptions {
  /**
   * Where the locks live: `{ url, token }` of an Upstash REST endpoint (the lightest: edgelock
   * reads only these two, so no `@upstash/redis` in your bundle), an `@upstash/redis` `Redis`, a
   * connected node-redis client or cluster client (TCP), or a `Backend`. Structural types: the
   * declarations import neither `@upstash/redis` nor `redis`.
   * @example { url: env.UPSTASH_REDIS_REST_URL, token: env.UPSTASH_REDIS_REST_TOKEN }
   */
  readonly redis: RedisInput;
  /** Key prefix; keys are `prefix:v1:{name}:…`. @default "edgelock" */
  readonly prefix?: string;
  /** Lease when `acquire()` gets no `leaseMs`; kept alive by the keeper. @default 30_000 */
  readonly leaseMs?: number;
  /** Timeout of each HTTP/TCP request. @default 5_000 */
  readonly requestTimeoutMs?: number;
  /** How long an ambiguous failure (timeout, 5xx, lost response) is retried. @default 10_000 */
  readonly retryWindowMs?: number;
  /** Keeps default leases alive. @default timerKeeper() */
  readonly keeper?: Keeper;
  /** How waiters pace their polls. @default justInTimeStrategy() */
  readonly wait?: WaitStrategy;
  /** How long a lock handed directly to a waiter stays reserved for it. @default 2_000 */
  readonly claimWindowMs?: number;
  /**
   * How long after its request an operation record (exactly-once) lives, about: records live
   * until the operation's deadline plus `operationRecordTtlMs - retryWindowMs`. Must be at least
   * `retryWindowMs + requestTimeoutMs + 2 × clockErrorMs + 1000`, so that a copy sent inside the retry
   * window, and the settle sent after it, still find the record.
   * @default retryWindowMs + 2 × requestTimeoutMs + 2 × clockErrorMs + 1000
   */
  readonly operationRecordTtlMs?: number;
  /**
   * Bound on this client's wall-clock error (against the database's clock), used only until the
   * client has learnt the server time from its first reply (a client made per request has
   * nothing else). Counted into every deadline and into the wait before `OutcomeUnknownError`.
   * NTP-synchronised hosts and Workers are well inside the default. See docs/protocol.md.
   * @default 1_000
   */
  readonly clockErrorMs?: number;
  /**
   * The wall clock (epoch ms) the client reads until it knows the server time, and for
   * serialised leases' `expiresAt`. A seam for tests that skew a client's clock.
   * @default Date.now
   */
  readonly wallClock?: () => number;
  /** How long the fence counter outlives the last grant. @default 604_800_000 (7 days) */
  readonly fenceTtlMs?: number;
  /**
   * How long a name's hold statistics (which pace waiters) outlive its last release: between half
   * this and this (a release refreshes their ttl once half of it has passed). @default 3_600_000 (1 h)
   */
  readonly statsTtlMs?: number;
  /**
   * Restart quarantine: when a grant finds the data set's sentinel missing (Redis lost its data,
   * or this is its first use), no new grant for this long, so a holder from before the loss
   * cannot overlap a new one. Must cover the longest lease any client of this prefix grants;
   * while on, this client refuses longer leases. Every client of a prefix should agree.
   * `client.initialize()` at first deploy spares the very first use. See docs/guarantees.md.
   * @default 0 (off)
   */
  readonly quarantineMs?: number;
  /**
   * Where the sentinel lives: one key per prefix ("prefix", a single Redis), or one per cluster
   * slot ("slot", Redis Cluster: a script may only touch keys of one slot).
   * @default "prefix"
   */
  readonly quarantineScope?: QuarantineScope;
  /** How long the sentinel outlives the last grant; an idle data set is quarantined once after it. @default 1_209_600_000 (14 days) */
  readonly sentinelTtlMs?: number;
  /** Push: how waiters use the backend's `/subscribe` stream (REST backends). */
  readonly push?: PushOptions;
  /** Observability hook; never allowed to break an operation. */
  readonly onEvent?: (event: LockEvent) => void;
}

/** Options of push (`createClient({ push })`). Times are integer milliseconds. */
export interface PushOptions {
  /**
   * How long the client stops asking for a stream once the backend refused one (HTTP 400, 404,
   * 405 or 501 on `/subscribe`, or an answer that is not an event stream: a backend without
   * push). Meanwhile waiters only poll and no request goes to `/subscribe`; then one stream
   * asks again, and a stream that goes live clears the memory. Per client.
   * @default 600_000 (10 min)
   */
  readonly refusedBackoffMs?: number;
}

/**
 * Every documented default of `createClient`'s options, the one place they are written (the
 * core README's table quotes them; a unit test holds the two equal). Defaults that are
 * functions (`keeper: timerKeeper()`, `wait: justInTimeStrategy()`, `wallClock: Date.now`) and
 * `operationRecordTtlMs`, derived from the others, are resolved by `resolveContext`.
 */
export const DEFAULT_CLIENT_OPTIONS = Object.freeze({
  prefix: "edgelock",
  leaseMs: 30_000,
  requestTimeoutMs: 5_000,
  retryWindowMs: 10_000,
  claimWindowMs: 2_000,
  clockErrorMs: 1_000,
  fenceTtlMs: 604_800_000,
  statsTtlMs: 3_600_000,
  sentinelTtlMs: 1_209_600_000,
  quarantineMs: 0,
  quarantineScope: "prefix" as QuarantineScope,
  push: Object.freeze({ refusedBackoffMs: 600_000 }),
});

/**
 * Slack an operation record keeps beyond a settle's own request time and the clock error bound:
 * the `1_000` of `operationRecordTtlMs`'s default and minimum.
 */
export const RECORD_MARGIN_SLACK_MS = 1_000;
