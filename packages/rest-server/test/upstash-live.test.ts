import { afterAll, beforeAll, describe } from "vitest";
import { startStack, type TestStack } from "./support.ts";
import { upstashBehaviours } from "./upstash-behaviours.ts";

// The Upstash behaviours this project relies on, checked against a real database when credentials
// are given, and always against the local server (so the checks themselves stay correct).
// Dedicated variable names first: the harness may point UPSTASH_REDIS_REST_* at other things.
const live = credentials();

function credentials(): { url: string; token: string } | undefined {
  const env = process.env;
  if (env["EDGELOCK_LIVE_UPSTASH_URL"] && env["EDGELOCK_LIVE_UPSTASH_TOKEN"]) {
    return { url: env["EDGELOCK_LIVE_UPSTASH_URL"], token: env["EDGELOCK_LIVE_UPSTASH_TOKEN"] };
  }
  if (env["UPSTASH_REDIS_REST_URL"] && env["UPSTASH_REDIS_REST_TOKEN"]) {
    return { url: env["UPSTASH_REDIS_REST_URL"], token: env["UPSTASH_REDIS_REST_TOKEN"] };
  }
  return undefined;
}

if (live === undefined) {
  console.info(
    "upstash-live: skipped, no real Upstash database given. Set EDGELOCK_LIVE_UPSTASH_URL and " +
      "EDGELOCK_LIVE_UPSTASH_TOKEN (or UPSTASH_REDIS_REST_URL and UPSTASH_REDIS_REST_TOKEN) to run it.",
  );
}

describe.skipIf(live === undefined)("real Upstash", () => {
  upstashBehaviours(() => live!);
});

describe("local rest-server, same checks", () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await stack?.close();
  });
  upstashBehaviours(() => ({ url: stack.server.url, token: stack.token }));
});
