import { AsyncLocalStorage } from "node:async_hooks";

/** A worker's wall-clock offset, changed by the fault driver while the worker runs. */
export interface Skew {
  ms: number;
  /**
   * The clock's rate error, in ms per second of real time (a drifting clock), from `since`
   * (real ms) on, its offset kept within ±`boundMs` (absent: a clock that does not drift).
   */
  drift?: { readonly msPerSecond: number; readonly since: number; readonly boundMs: number };
}

/** The offset of `skew`'s clock at real time `at`: its skew plus its drift so far, bounded. */
export function offsetAt(skew: Skew, at: number = realNow()): number {
  if (skew.drift === undefined) return skew.ms;
  const { msPerSecond, since, boundMs } = skew.drift;
  const drifted = skew.ms + (msPerSecond * (at - since)) / 1000;
  return Math.max(-boundMs, Math.min(boundMs, drifted));
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
  if (installed++ === 0)
    Date.now = () => {
      const skew = current.getStore();
      const at = realNow();
      return skew === undefined ? at : at + offsetAt(skew, at);
    };
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
