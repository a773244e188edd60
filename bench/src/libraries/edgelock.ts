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
 * `polling`: the backend offers no `subscribe`, so waiters only poll. `refused`: the backend
 * offers `/subscribe` but answers it 404 (through `refusingUrl`, a proxy that refuses it after
 * one round trip), as an Upstash-compatible bridge without push does; commands go as for the
 * others.
 */
export function edgelockLibrary(
  mode: "push" | "polling" | "refused",
  refusingUrl?: () => string,
): LockLibrary {
  return {
    name: mode === "refused" ? "edgelock (push refused: 404)" : `edgelock (${mode})`,
    transport: "rest",
    settings: {
      push: "defaults: just-in-time polling + SSE push, claim window 2 s",
      polling: "defaults without push (the backend offers no subscribe)",
      refused: "defaults; the backend answers /subscribe with 404 after R",
    }[mode],
    async worker(env) {
      return edgelockWorker(edgelockClient(env, mode, refusingUrl), env);
    },
  };
}

/**
 * A client as a bench worker uses it: REST, push lines delayed by the one-way trip (or none, or
 * streams refused by `refusingUrl`).
 */
export function edgelockClient(
  env: LibraryEnv,
  mode: "push" | "polling" | "refused",
  refusingUrl?: () => string,
) {
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
  if (mode === "refused") {
    if (refusingUrl === undefined) throw new Error("edgelock (refused) needs a refusing URL");
    const refusing = upstashRestBackend({ url: refusingUrl(), token: env.rest.token });
    backend.subscribe = (channel, signal) => refusing.subscribe!(channel, signal);
    backend.psubscribe = (pattern, signal) => refusing.psubscribe!(pattern, signal);
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
