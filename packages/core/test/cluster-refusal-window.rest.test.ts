import { keyPrefix } from "@edgelock/testkit";
import { describe, expect, it } from "vitest";
import { BackendError, createClient, ReplyError, type LockEvent } from "../src/index.ts";
import { restBackend, tapBackend } from "./rest-backend.ts";

/**
 * A Redis Cluster refuses a script whose keys are split mid-migration before it runs
 * (`TRYAGAIN`), or all scripts while it is down (`CLUSTERDOWN`): nothing ran, so the engine
 * resends within `retryWindowMs`, whatever the operation; a refusal that outlasts the window ends
 * in `BackendError` (docs/guarantees.md, "On Redis Cluster"). The slot-migration test shows the
 * resends that succeed; this one, the refusal that does not end.
 */
describe("a cluster refusal that outlasts retryWindowMs", () => {
  it.each([
    "TRYAGAIN Multiple keys request during rehashing of slot",
    "CLUSTERDOWN The cluster is down",
  ])("%s: resent within the window, then BackendError, and nothing was taken", async (refusal) => {
    const inner = restBackend();
    const state = { refusing: false, refused: 0 };
    const backend = tapBackend(inner, (args, signal) => {
      if (state.refusing && (args[0] === "EVALSHA" || args[0] === "EVAL")) {
        state.refused++;
        return Promise.reject(new ReplyError(refusal));
      }
      return inner.command(args, signal);
    });
    const prefix = keyPrefix();
    const events: LockEvent[] = [];
    const client = createClient({
      redis: backend,
      prefix,
      retryWindowMs: 600,
      onEvent: (e) => events.push(e),
    });
    await (await client.lock("warm").acquire()).release(); // scripts cached, server time known
    state.refusing = true;
    const startedAt = performance.now();
    const error = await client
      .lock("t")
      .tryAcquire()
      .catch((e: unknown) => e);
    const tookMs = performance.now() - startedAt;
    state.refusing = false;
    expect(error).toBeInstanceOf(BackendError);
    expect((error as Error).message).toContain(refusal.split(" ")[0]);
    expect(state.refused).toBeGreaterThan(1);
    expect(events.filter((e) => e.type === "retried").length).toBe(state.refused - 1);
    expect(tookMs).toBeLessThan(600 + 500);
    const other = createClient({ redis: restBackend(), prefix });
    const held = await other.lock("t").tryAcquire();
    expect(held).not.toBeNull();
    await held!.release();
  });
});
