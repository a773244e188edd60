import { AbortedError } from "../errors.ts";

/** Sleeps `ms`, or rejects with `AbortedError` (cause: the signal's reason) as soon as `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal, what = "wait"): Promise<void> {
  if (signal?.aborted) return Promise.reject(new AbortedError(what, signal.reason));
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(new AbortedError(what, signal?.reason));
    };
    const timer = setTimeout(
      () => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      },
      Math.max(0, ms),
    );
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** A signal that aborts when any input aborts or after `timeoutMs`; `dispose()` clears its timer. */
export function linkedSignal(timeoutMs: number, ...inputs: (AbortSignal | undefined)[]) {
  const controller = new AbortController();
  const abort = (reason: unknown) => controller.abort(reason);
  const timer = setTimeout(
    () => abort(new Error(`request timed out after ${timeoutMs} ms`)),
    timeoutMs,
  );
  const cleanups: (() => void)[] = [];
  for (const input of inputs) {
    if (!input) continue;
    if (input.aborted) abort(input.reason);
    const onAbort = () => abort(input.reason);
    input.addEventListener("abort", onAbort, { once: true });
    cleanups.push(() => input.removeEventListener("abort", onAbort));
  }
  return {
    signal: controller.signal,
    dispose() {
      clearTimeout(timer);
      for (const cleanup of cleanups) cleanup();
    },
  };
}
