import { Redis } from "@upstash/redis";
import { startStack, type Stack } from "@edgelock/testkit";
import { afterAll, beforeAll, beforeEach } from "vitest";
import { makeTestClient } from "./support.ts";

/**
 * A Redis and a fault-injecting rest-server of the calling test file's own (faults there never
 * touch other files' requests), cleared before each test; `make` gives a counting REST client
 * under a fresh prefix.
 */
export function useFaultStack() {
  let stack: Stack | undefined;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await stack?.close();
  });
  beforeEach(async () => {
    await current().faults.clear();
  });
  const current = (): Stack => {
    if (!stack) throw new Error("useFaultStack: the stack is used before beforeAll ran");
    return stack;
  };
  const make = (options: Parameters<typeof makeTestClient>[1] = {}) =>
    makeTestClient(new Redis({ url: current().rest.url, token: current().rest.token }), {
      prefix: `f${Math.random().toString(36).slice(2)}`,
      ...options,
    });
  return { stack: current, make };
}
