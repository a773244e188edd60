/** Monotonic milliseconds. Deadlines are durations on this clock, never wall-clock times. */
export const now = (): number => performance.now();
