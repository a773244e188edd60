import { AsyncLocalStorage } from "node:async_hooks";

/**
 * Which public call (intent) a request belongs to. Async context follows the core's background
 * work (an abandon after a give-up, a keeper renewal), so it is charged to the call that started it.
 */
const current = new AsyncLocalStorage<number>();

export const currentIntent = (): number | null => current.getStore() ?? null;

export function runInIntent<T>(intent: number, fn: () => T): T {
  return current.run(intent, fn);
}

/** The unskewed wall clock (the campaign skews `Date.now` per client). */
const realDateNow = Date.now.bind(Date);
export const realNow = (): number => realDateNow();
