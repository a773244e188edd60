import { ReplyError, TransportError } from "../backend/backend.ts";
import type { ClientContext } from "../client-context.ts";
import { now } from "../engine/clock.ts";
import { linkedSignal, sleep } from "../engine/sleep.ts";
import { AbortedError, BackendError } from "../errors.ts";

/**
 * Runs one read-only command (SCAN goes over REST as a plain command) with the client's request
 * timeout. A read changes nothing, so an ambiguous failure is simply tried again within the
 * client's retry window; what is left is a `BackendError` with the cause.
 */
export async function readCommand(
  ctx: ClientContext,
  args: readonly (string | number)[],
  signal?: AbortSignal,
): Promise<unknown> {
  const what = String(args[0]);
  const started = now();
  for (let attempt = 1; ; attempt++) {
    const request = linkedSignal(ctx.policy.requestTimeoutMs, signal);
    try {
      return await ctx.backend.command(args, request.signal);
    } catch (error) {
      if (signal?.aborted) throw new AbortedError(what, signal.reason);
      const delay = Math.random() * Math.min(1_000, 25 * 2 ** attempt);
      const ambiguous = error instanceof TransportError && error.ambiguous;
      if (!ambiguous || now() + delay - started > ctx.policy.retryWindowMs) {
        const message =
          error instanceof ReplyError || error instanceof TransportError
            ? error.message
            : String(error);
        const status = error instanceof TransportError ? error.status : undefined;
        throw new BackendError(
          `${what}: ${message}`,
          status === undefined ? { cause: error } : { cause: error, status },
        );
      }
      ctx.emit({ type: "retried", operation: what, attempt, error: error as Error });
      await sleep(delay, signal, what);
    } finally {
      request.dispose();
    }
  }
}
