/** What the server said when an attempt found the lock busy, plus the waiter's own budget. */
export interface WaitHint {
  /** Attempts made so far (1 after the first). */
  readonly attempt: number;
  /** The holder's remaining lease, ms (0 when unknown). A waiter never sleeps past it. */
  readonly remainingLeaseMs: number;
  /** 1-based position in the waiter queue, 0 when not queued. */
  readonly position: number;
  /** Server-measured mean hold time of this name, ms (0 when unknown): from when the holder knew it held to its release. */
  readonly meanHoldMs: number;
  /** How long the current hold has lasted, ms (0 while a direct grant awaits its claim). */
  readonly holdAgeMs: number;
  /** What is left of the caller's `waitMs`. */
  readonly budgetMs: number;
  /** Server-measured mean absolute deviation of hold times, ms: how predictable holds are. */
  readonly holdDevMs?: number;
  /**
   * Server-measured mean hand-off cycle, ms: from one grant to its release, including how late
   * the holder claimed. Each waiter ahead costs one cycle; absent, one mean hold.
   */
  readonly meanCycleMs?: number;
  /** The server's clock (ms) when it answered; lets a push grant be told from a stale one. */
  readonly serverMs?: number;
  /** Measured round trip of this waiter's attempts, ms (send to reply). */
  readonly rttMs?: number;
  /** How much that round trip varies (mean absolute deviation), ms: how precisely a poll lands. */
  readonly rttDevMs?: number;
  /** A push stream is live on the waiter's grant channel: the next poll is only a safety net. */
  readonly pushed?: boolean;
  /** How long a direct grant stays reserved for its waiter; a queued waiter polls within it. */
  readonly claimWindowMs?: number;
  /**
   * Why the attempt was refused, when not simply held: "quarantine" while the restart quarantine
   * lasts (Redis lost its data; `remainingLeaseMs` is what is left of the quarantine).
   */
  readonly reason?: "quarantine";
}

/**
 * The wait-strategy seam: how long to sleep before the next attempt. The loop around it caps
 * every sleep by the holder's remaining lease and the wait budget, so a strategy cannot oversleep
 * a hand-off opportunity by more than it chooses to.
 */
export interface WaitStrategy {
  readonly name: string;
  /** The longest sleep this strategy ever asks for; waiters promise the server to be back by then. */
  readonly maxDelayMs: number;
  nextDelay(hint: WaitHint): number;
}

export interface BackoffOptions {
  /** First sleep's upper bound. @default 20 */
  readonly baseMs?: number;
  /** Cap on any sleep. @default 1_000 */
  readonly maxMs?: number;
}

export const DEFAULT_BACKOFF = Object.freeze({ baseMs: 20, maxMs: 1_000 });

/** Exponential backoff with full jitter: uniform in [0, min(max, base · 2^(attempt-1))]. */
export function backoffStrategy(options: BackoffOptions = {}): WaitStrategy {
  const { baseMs, maxMs } = { ...DEFAULT_BACKOFF, ...options };
  return {
    name: "backoff",
    maxDelayMs: maxMs,
    nextDelay: ({ attempt }) => Math.random() * Math.min(maxMs, baseMs * 2 ** (attempt - 1)),
  };
}
