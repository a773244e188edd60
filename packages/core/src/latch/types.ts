/** Options of `latch.trySetCount()`. */
export interface TrySetCountOptions {
  /**
   * The latch key expires this long after it was set or last counted down, so an abandoned latch
   * does not stay forever. When it expires before reaching zero it reads as open (count 0), so
   * choose it far longer than the slowest expected count-down. @default 86_400_000 (24 h)
   */
  readonly ttlMs?: number;
}

/** Options of `latch.await()`. */
export interface LatchAwaitOptions {
  /** How long to wait for the count to reach zero. @default 2_147_483_647 (no practical limit, as Redisson's await()) */
  readonly waitMs?: number;
  /** Cancels the wait at once (rejects with `AbortedError`, `cause` the signal's reason). */
  readonly signal?: AbortSignal;
}

export const DEFAULT_LATCH_OPTIONS = Object.freeze({ ttlMs: 86_400_000, waitMs: 2_147_483_647 });
