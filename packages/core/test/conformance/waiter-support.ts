import {
  resolveBackend,
  TransportError,
  type Backend,
  type ClientOptions,
  type WaitStrategy,
  type RedisInput,
} from "../../src/index.ts";
import { delay, makeTestClient, type TestClient } from "../support.ts";

/**
 * A client whose invocation "dies" after its first successful request: every later request fails
 * before reaching Redis, so a waiter queued by that request never polls again (nor leaves).
 */
export function dyingClient(redis: RedisInput, options: Omit<ClientOptions, "redis">): TestClient {
  const inner = resolveBackend(redis);
  let alive = true;
  const dying: Backend = {
    kind: inner.kind,
    async command(args, signal) {
      if (!alive) throw new TransportError("invocation died", { ambiguous: false });
      const reply = await inner.command(args, signal);
      alive = false;
      return reply;
    },
  };
  return makeTestClient(dying, options);
}

/** A waiter that always sleeps exactly as long as it declared it might: the slowest legal poller. */
export function slowestStrategy(ms: number): WaitStrategy {
  return { name: `constant-${ms}`, maxDelayMs: ms, nextDelay: () => ms };
}

/** A fast poller, to show that polling often buys no place in a FIFO queue. */
export function eagerStrategy(ms = 5): WaitStrategy {
  return { name: `eager-${ms}`, maxDelayMs: ms, nextDelay: () => ms };
}

/** Polls `check` until it is true; throws after `ms` so a test fails instead of hanging. */
export async function until(
  check: () => Promise<boolean> | boolean,
  ms = 10_000,
  what = "condition",
): Promise<void> {
  const give = performance.now() + ms;
  while (!(await check())) {
    if (performance.now() > give) throw new Error(`${what} not reached within ${ms} ms`);
    await delay(10);
  }
}
