/**
 * Re-yields a push stream's lines as a client one network trip away would see them: the
 * subscription reaches the server `oneWay` after it is sent, and each line reaches the client
 * `oneWay` after the server sent it, in order.
 */
export async function* delayedLines(
  lines: AsyncIterable<string>,
  oneWayMs: () => number,
  signal: AbortSignal,
): AsyncGenerator<string> {
  const queue: { line: string; at: number }[] = [];
  let wake: (() => void) | undefined;
  let ended = false;
  let failure: unknown;
  let last = 0;
  await pause(oneWayMs(), signal);
  void (async () => {
    try {
      for await (const line of lines) {
        last = Math.max(last, performance.now() + oneWayMs());
        queue.push({ line, at: last });
        wake?.();
      }
    } catch (error) {
      failure = error;
    }
    ended = true;
    wake?.();
  })();
  for (;;) {
    const next = queue.shift();
    if (next) {
      await pause(next.at - performance.now(), signal);
      yield next.line;
      continue;
    }
    if (ended) {
      if (failure !== undefined) throw failure;
      return;
    }
    await new Promise<void>((resolve) => (wake = resolve));
    wake = undefined;
  }
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, Math.max(0, ms));
    signal.addEventListener("abort", () => (clearTimeout(timer), reject(signal.reason)), {
      once: true,
    });
  });
}
