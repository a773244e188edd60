/**
 * The keeper seam: what keeps a default lease alive. The core ships the timer keeper (Node, or any
 * runtime where the process outlives the response); `@edgelock/cloudflare` and `@edgelock/vercel`
 * ship `waitUntil` keepers and the Durable Object keeper.
 */
export interface Keeper {
  /**
   * Takes a new hold to keep alive; returns at once (the renewals run in the background).
   * Throwing fails the acquire with `KeeperError` after the hold is given back. A keeper that
   * returns a promise (an `async` one) fails the acquire the same way when it rejects before the
   * next macrotask; a later rejection loses the lease (`held.signal`, reason "keeper-failed").
   */
  keep(task: KeepTask): void;
}

export interface KeepTask {
  readonly name: string;
  /** Renew this often (lease / 3). */
  readonly intervalMs: number;
  /** Aborts when the hold ends (release or loss): stop renewing. */
  readonly signal: AbortSignal;
  /**
   * One renewal. `"renewed"`: keep going; `"stop"`: the hold is gone or reached `maxHoldMs` (the
   * lease itself reports the loss). Throws when the outcome is unknown: try again sooner; the
   * lease's local deadline still protects the holder.
   */
  renew(): Promise<"renewed" | "stop">;
  /** The serialised lease, for keepers that hand the hold to another process. */
  lease(): unknown;
  /**
   * The keeper handed the lease to another process (a Durable Object keeper). This process can no
   * longer confirm it, so its `signal` still aborts at the local deadline, with reason
   * "taken-over" rather than "deadline": the hold may well live on elsewhere.
   */
  handedOver?(): void;
}

/** Renews on a timer in this process: the default on Node and in long-lived runtimes. */
export function timerKeeper(): Keeper {
  return {
    keep(task) {
      void renewLoop(task);
    },
  };
}

/** The renewal loop shared by keepers that run in the holder's own process. */
export async function renewLoop(task: KeepTask, until?: () => boolean): Promise<void> {
  let delay = task.intervalMs;
  while (!task.signal.aborted && (until?.() ?? true)) {
    if (!(await pause(delay, task.signal))) return;
    try {
      if ((await task.renew()) === "stop") return;
      delay = task.intervalMs;
    } catch {
      // Outcome unknown: try again sooner; the local deadline aborts the hold if none succeeds.
      delay = Math.max(50, Math.floor(task.intervalMs / 3));
    }
  }
}

function pause(ms: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve(false);
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve(true);
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
