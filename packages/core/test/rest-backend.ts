import { Redis } from "@upstash/redis";
import { harness } from "@edgelock/testkit";
import { resolveBackend, type Backend } from "../src/index.ts";

/** The shared harness's rest-server as a backend, push included. */
export function restBackend(): Backend {
  const env = harness();
  return resolveBackend(new Redis({ url: env.restUrl, token: env.restToken }));
}

/**
 * `inner` with every command passed through `command` (a test's seam to count, delay or look at
 * them), its push streams unchanged.
 */
export function tapBackend(inner: Backend, command: Backend["command"]): Backend {
  const backend: Backend = { kind: inner.kind, command };
  if (inner.subscribe) backend.subscribe = inner.subscribe.bind(inner);
  if (inner.psubscribe) backend.psubscribe = inner.psubscribe.bind(inner);
  return backend;
}
