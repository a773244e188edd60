import {
  createClient,
  justInTimeStrategy,
  upstashRestBackend,
  type Backend,
  type WaitHint,
} from "@edgelock/core";
import { delayedLines } from "./delayed-lines.ts";
import type { LibraryEnv, LockLibrary, LockWorker } from "./types.ts";

/**
 * edgelock over Upstash REST, each worker its own client (as its own invocation). `push`: the
 * REST backend's `/subscribe` stream, with each pushed line delayed by the one-way trip (the
 * rest-server streams published messages at once and injects latency only around requests).
 * Without push the backend offers no `subscribe`, so waiters only poll.
 */
export function edgelockLibrary(mode: "push" | "polling"): LockLibrary {
  return {
    name: `edgelock (${mode})`,
    transport: "rest",
    settings:
      mode === "push"
        ? "defaults: just-in-time polling + SSE push, claim window 2 s"
        : "defaults without push (the backend offers no subscribe)",
    async worker(env) {
      return edgelockWorker(edgelockClient(env, mode), env);
    },
  };
}

/** A client as a bench worker uses it: REST, push lines delayed by the one-way trip (or none). */
export function edgelockClient(env: LibraryEnv, mode: "push" | "polling") {
  const rest = upstashRestBackend(env.rest);
  const backend: Backend = {
    kind: "rest",
    command: (args, signal) => rest.command(args, signal),
  };
  if (mode === "push") {
    backend.subscribe = (channel, signal) =>
      delayedLines(rest.subscribe!(channel, signal), env.oneWayMs, signal);
    // The stream a client's waiters on one name share (`/psubscribe`).
    backend.psubscribe = (pattern, signal) =>
      delayedLines(rest.psubscribe!(pattern, signal), env.oneWayMs, signal);
  }
  return createClient(
    process.env["BENCH_TRACE"] ? { redis: backend, wait: tracing } : { redis: backend },
  );
}

function edgelockWorker(client: ReturnType<typeof createClient>, env: LibraryEnv): LockWorker {
  return {
    async acquire({ waitMs, leaseMs, name = env.name }) {
      // A fresh handle per acquire: each critical section is its own request, its own owner.
      const held = await client
        .lock(name)
        .acquire(leaseMs === undefined ? { waitMs } : { waitMs, leaseMs });
      return {
        signal: held.signal,
        release: () => held.release(),
        extend: (ms) => held.extend(ms),
      };
    },
    close: () => client.settled(),
  };
}

/** Development aid (BENCH_TRACE=1): every hint the strategy saw and the delay it chose. */
export const strategyTrace: { at: number; hint: WaitHint; delay: number }[] = [];
const inner = justInTimeStrategy();
const tracing = {
  ...inner,
  nextDelay(hint: WaitHint) {
    const delay = inner.nextDelay(hint);
    strategyTrace.push({ at: performance.now(), hint, delay });
    return delay;
  },
};
