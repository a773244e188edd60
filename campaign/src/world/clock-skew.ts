import { AsyncLocalStorage } from "node:async_hooks";

/** A worker's wall-clock offset, changed by the fault driver while the worker runs. */
export interface Skew {
  ms: number;
}

const current = new AsyncLocalStorage<Skew>();
const realNow = Date.now;

/**
 * Skews `Date.now()` per worker: everything a worker runs (its client's timers and keeper
 * included, since async context follows them) reads its own offset. The core should measure
 * only durations on the monotonic clock and trust only the server's clock, so no skew may change
 * what it does. Returns the uninstaller.
 */
export function installClockSkew(): () => void {
  // Counted: runs in one process (the mutation test's parallel worlds) install it each.
  if (installed++ === 0) Date.now = () => realNow() + (current.getStore()?.ms ?? 0);
  let done = false;
  return () => {
    if (done) return;
    done = true;
    if (--installed === 0) Date.now = realNow;
  };
}
let installed = 0;

export function runSkewed<T>(skew: Skew, fn: () => T): T {
  return current.run(skew, fn);
}
