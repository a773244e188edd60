import { now } from "../engine/clock.ts";
import type { KeepTask } from "../lease/keeper.ts";

/**
 * Renews every `task.intervalMs` while the next renewal can still start before `cutoff`
 * (monotonic ms). `"ended"`: the hold ended (release, loss, maxHoldMs); `"budget"`: the hold
 * continues but this invocation may not renew it any longer.
 */
export async function renewUntil(task: KeepTask, cutoff: number): Promise<"ended" | "budget"> {
  let delay = task.intervalMs;
  for (;;) {
    if (task.signal.aborted) return "ended";
    if (now() + delay > cutoff) return "budget";
    if (!(await abortedWithin(task.signal, delay))) {
      try {
        if ((await task.renew()) === "stop") return "ended";
        delay = task.intervalMs;
      } catch {
        // Outcome unknown: try again sooner; the lease's local deadline still protects the holder.
        delay = Math.max(50, Math.floor(task.intervalMs / 3));
      }
    }
  }
}

/** Waits `ms`; `true` as soon as `signal` aborts, `false` when the time passed first. */
export function abortedWithin(signal: AbortSignal, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve(true);
    const onAbort = () => {
      clearTimeout(timer);
      resolve(true);
    };
    const timer = setTimeout(
      () => {
        signal.removeEventListener("abort", onAbort);
        resolve(false);
      },
      Math.max(0, ms),
    );
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
