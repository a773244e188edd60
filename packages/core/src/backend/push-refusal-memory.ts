import { now } from "../engine/clock.ts";
import { AbortedError } from "../errors.ts";
import type { Backend } from "./backend.ts";
import { isPushRefusal, PushRefusedError } from "./push-refused.ts";

/**
 * A client's memory of its backend refusing push. A backend without `/subscribe` (an
 * Upstash-compatible bridge, a proxy that forwards only commands) answers every stream with the
 * same 404: asked on every wait, it would cost a wasted request per wait and per waiter. Once
 * refused, the backend offers no `subscribe` (waiters only poll, and a poll costs what a poll
 * costs) until `refusedBackoffMs` have passed; then one stream asks again, and a stream that goes
 * live clears the memory.
 *
 * While nothing is known yet, the first stream is the probe: the others wait for its verdict, so
 * a stampede of waiters on a client that was never told costs one refused request, not one per
 * waiter. Once a stream went live, streams open at once (push is not delayed by a probe), so a
 * backend that stops offering push refuses the streams already on their way, then is remembered.
 *
 * Backends without push (TCP) are returned as they are.
 */
export function rememberPushRefusal(backend: Backend, refusedBackoffMs: number): Backend {
  const opens = {
    subscribe: backend.subscribe?.bind(backend),
    psubscribe: backend.psubscribe?.bind(backend),
  };
  if (opens.subscribe === undefined && opens.psubscribe === undefined) return backend;
  let refusedAt = -Infinity;
  let accepted = false;
  let probe: Promise<void> | undefined;
  const refused = () => now() - refusedAt < refusedBackoffMs;

  // One memory for both kinds of stream: a backend that refuses one offers no push at all.
  async function* stream(
    kind: keyof typeof opens,
    target: string,
    signal: AbortSignal,
  ): AsyncGenerator<string> {
    while (!accepted && probe !== undefined) await settledOrAborted(probe, signal);
    if (refused()) {
      const left = Math.ceil(refusedBackoffMs - (now() - refusedAt));
      throw new PushRefusedError(
        `${kind}: the backend refused push; not asked again for ${left} ms (push.refusedBackoffMs)`,
        undefined,
      );
    }
    let verdict: (() => void) | undefined;
    if (!accepted) probe = new Promise<void>((resolve) => (verdict = resolve));
    const mine = probe;
    const decided = () => {
      if (verdict === undefined) return;
      verdict();
      verdict = undefined;
      if (probe === mine) probe = undefined;
    };
    try {
      for await (const line of opens[kind]!(target, signal)) {
        if (!accepted) {
          accepted = true;
          refusedAt = -Infinity;
        }
        decided();
        yield line;
      }
    } catch (error) {
      if (isPushRefusal(error)) {
        refusedAt = now();
        accepted = false;
      }
      throw error;
    } finally {
      // Broken, closed or refused: the waiters behind the probe may decide for themselves.
      decided();
    }
  }

  const remembering: Backend = {
    kind: backend.kind,
    command: (args, signal) => backend.command(args, signal),
  };
  // Absent while refused (read at each wait): the waiter then plans its sleeps as a polling
  // waiter, not a pushed one, and opens no stream.
  for (const kind of ["subscribe", "psubscribe"] as const) {
    if (opens[kind] === undefined) continue;
    const open = (target: string, signal: AbortSignal) => stream(kind, target, signal);
    Object.defineProperty(remembering, kind, {
      enumerable: true,
      get: () => (refused() ? undefined : open),
    });
  }
  return remembering;
}

/** Resolves when `probe` settles, rejects with `AbortedError` when `signal` aborts first. */
function settledOrAborted(probe: Promise<void>, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.reject(new AbortedError("subscribe", signal.reason));
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(new AbortedError("subscribe", signal.reason));
    signal.addEventListener("abort", onAbort, { once: true });
    void probe.then(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    });
  });
}
