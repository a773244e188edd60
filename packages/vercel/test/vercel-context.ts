/**
 * Stands in for Vercel's runtime: `@vercel/functions` reads the request context from this
 * global symbol (its `get-context.js`), for `waitUntil` and `getDeadline` alike.
 */
const CONTEXT = Symbol.for("@vercel/request-context");

export function simulateVercel(deadlineInMs: number): {
  pending: Promise<unknown>[];
  settled(): Promise<void>;
  restore(): void;
} {
  const pending: Promise<unknown>[] = [];
  const context = {
    waitUntil: (p: Promise<unknown>) => void pending.push(p),
    deadline: Date.now() + deadlineInMs,
  };
  (globalThis as Record<symbol, unknown>)[CONTEXT] = { get: () => context };
  return {
    pending,
    settled: async () => void (await Promise.all(pending)),
    restore: () => void delete (globalThis as Record<symbol, unknown>)[CONTEXT],
  };
}
