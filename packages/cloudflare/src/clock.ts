/** Monotonic milliseconds: budgets are durations, never wall-clock times. */
export const now = (): number => performance.now();
