import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  FaultControlError,
  FaultControl,
  makeUpstash,
  startStack,
  type Stack,
} from "../src/index.ts";

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());
beforeEach(async () => {
  await stack.faults.clear();
  await stack.faults.resetStats();
});

const command = (body: unknown[]) =>
  fetch(stack.rest.url, {
    method: "POST",
    headers: { authorization: `Bearer ${stack.rest.token}` },
    body: JSON.stringify(body),
  });

describe("startStack + FaultControl", () => {
  it("a fail-before rule answers 5xx once without executing, then requests go through", async () => {
    await stack.faults.add({ kind: "fail-before", match: "fb-key" });
    expect(await stack.faults.list()).toEqual([{ kind: "fail-before", match: "fb-key", times: 1 }]);
    const failed = await command(["SET", "fb-key", "1"]);
    await failed.body?.cancel();
    expect(failed.status).toBe(502);
    expect(await stack.faults.list()).toEqual([]);
    const ok = await command(["GET", "fb-key"]);
    expect(await ok.json()).toEqual({ result: null });
  });

  it("counts data-plane requests and commands, not control calls; resetStats zeroes them", async () => {
    for (let i = 0; i < 3; i++) await (await command(["PING"])).body?.cancel();
    await stack.faults.list();
    const stats = await stack.faults.stats();
    expect(stats.httpRequests).toBe(3);
    expect(stats.commands["ping"]).toBe(3);
    await stack.faults.resetStats();
    expect(await stack.faults.stats()).toMatchObject({ httpRequests: 0, redisCommands: 0 });
  });

  it("flushScripts makes the next EVALSHA answer NOSCRIPT", async () => {
    const redis = makeUpstash({
      redisUrl: stack.redis.url,
      restUrl: stack.rest.url,
      restToken: stack.rest.token,
      faultsEnabled: true,
      external: false,
    });
    const sha = await redis.scriptLoad("return 1");
    expect(await redis.scriptExists(sha)).toEqual([1]);
    await stack.faults.flushScripts();
    expect(await redis.scriptExists(sha)).toEqual([0]);
  });

  it("a wrong token is refused with FaultControlError", async () => {
    await expect(new FaultControl(stack.rest.url, "nope").stats()).rejects.toBeInstanceOf(
      FaultControlError,
    );
  });
});

describe("the rest-server across Redis restarts", () => {
  it("keeps serving after redis.restart(), and after kill() + restart()", async () => {
    expect(await (await command(["SET", "survive", "1"])).json()).toEqual({ result: "OK" });
    await stack.redis.restart();
    await expect
      .poll(async () => (await command(["PING"])).status, { timeout: 5_000, interval: 50 })
      .toBe(200);
    expect(await (await command(["GET", "survive"])).json()).toEqual({ result: null });

    await stack.redis.kill();
    const during = await command(["PING"]);
    await during.body?.cancel();
    expect(during.status).toBeGreaterThanOrEqual(500);
    await stack.redis.restart();
    await expect
      .poll(async () => (await command(["PING"])).status, { timeout: 5_000, interval: 50 })
      .toBe(200);
  });
});
