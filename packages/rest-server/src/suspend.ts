/**
 * Requests held open on purpose (the `hang` fault). Each waits until its client gives up (the
 * request's signal aborts) or the app closes, so no hung request outlives `close()`.
 */
export class Suspensions {
  #waiting = new Set<() => void>();

  /** Resolves `"aborted"` when the client went away, `"closed"` when the app is closing. */
  wait(signal: AbortSignal): Promise<"aborted" | "closed"> {
    if (signal.aborted) return Promise.resolve("aborted");
    return new Promise((resolve) => {
      const onAbort = () => {
        this.#waiting.delete(onClose);
        resolve("aborted");
      };
      const onClose = () => {
        signal.removeEventListener("abort", onAbort);
        resolve("closed");
      };
      signal.addEventListener("abort", onAbort, { once: true });
      this.#waiting.add(onClose);
    });
  }

  releaseAll(): void {
    const waiting = [...this.#waiting];
    this.#waiting.clear();
    for (const release of waiting) release();
  }
}
