import {
  closeAll,
  makeNodeRedis,
  startCluster,
  type RedisClusterProcess,
} from "../../testkit/src/index.ts"; // by path: testkit depends on this package, a declared dependency would be a cycle
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRestServer, type RunningRestServer } from "../src/index.ts";
import { uniqueKey } from "./support.ts";

// The server in front of a 3-master Redis Cluster (`cluster: true`): each command goes to the
// master of its key's slot; script cache, SCAN, DBSIZE and KEYS span every master.
let cluster: RedisClusterProcess;
let server: RunningRestServer;
beforeAll(async () => {
  cluster = await startCluster({ masters: 3 });
  server = await startRestServer({
    redisUrl: cluster.urls[1]!,
    cluster: true,
    token: "tok",
    enableFaults: true,
  });
});
afterAll(async () => {
  await server?.close();
  await closeAll();
  await cluster?.close();
});

const call = async (path: string, body: unknown) => {
  const response = await fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { authorization: "Bearer tok" },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
};
const command = async (...args: unknown[]) => call("/", args);

// One hash tag per master: slots 1584, 5649 and 15495 of the three even ranges.
const TAGS = ["{3}", "{2}", "{a}"] as const;
const SCRIPT = "return redis.call('GET', KEYS[1])";

/** Keys each master holds, counted on the masters themselves. */
const perNode = () =>
  Promise.all(
    cluster.urls.map(async (url) =>
      Number(await (await makeNodeRedis(url)).sendCommand(["DBSIZE"])),
    ),
  );

describe("rest-server in front of a Redis Cluster", () => {
  it("routes each command by its key, so keys of every slot work", async () => {
    const keys = TAGS.map((tag) => uniqueKey(`${tag}route`));
    for (const key of keys)
      expect(await command("SET", key, "v")).toEqual({ status: 200, json: { result: "OK" } });
    const pipeline = await call(
      "/pipeline",
      keys.map((key) => ["GET", key]),
    );
    expect(pipeline.json).toEqual(keys.map(() => ({ result: "v" })));
    expect((await perNode()).every((n) => n > 0)).toBe(true);
    expect((await command("EVAL", SCRIPT, 1, keys[2]!)).json).toEqual({ result: "v" });
  });

  it("SCRIPT LOAD reaches every master, and flush-scripts empties every master", async () => {
    const sha = (await command("SCRIPT", "LOAD", SCRIPT)).json["result"] as string;
    for (const tag of TAGS) {
      expect((await command("EVALSHA", sha, 1, `${tag}missing`)).json).toEqual({ result: null });
    }
    expect((await call("/__edgelock/flush-scripts", {})).status).toBe(200);
    await command("PING"); // the flush runs before the next command
    for (const tag of TAGS) {
      expect(String((await command("EVALSHA", sha, 1, `${tag}missing`)).json["error"])).toMatch(
        /NOSCRIPT/,
      );
    }
  });

  it("SCAN walks every master behind one cursor; DBSIZE and KEYS cover the whole cluster", async () => {
    const prefix = uniqueKey("scan");
    const keys = Array.from({ length: 30 }, (_, i) => `${prefix}:${i}`);
    for (const key of keys) await command("SET", key, "1");
    const found = new Set<string>();
    let cursor = "0";
    let calls = 0;
    do {
      const [next, page] = (await command("SCAN", cursor, "MATCH", `${prefix}:*`, "COUNT", 1000))
        .json["result"] as [string, string[]];
      for (const key of page) found.add(key);
      cursor = next;
      calls++;
    } while (cursor !== "0" && calls < 100);
    expect([...found].sort()).toEqual([...keys].sort());
    expect(calls).toBeGreaterThanOrEqual(3);
    const total = (await perNode()).reduce((a, b) => a + b, 0);
    expect((await command("DBSIZE")).json).toEqual({ result: total });
    expect(((await command("KEYS", `${prefix}:*`)).json["result"] as string[]).sort()).toEqual(
      [...keys].sort(),
    );
  });

  it("a script whose keys span slots gets Redis' CROSSSLOT; transactions are refused", async () => {
    const crossing = await command("EVAL", "return 1", 2, "{3}x", "{a}y");
    expect(crossing.status).toBe(400);
    expect(String(crossing.json["error"])).toMatch(/CROSSSLOT/);
    const transaction = await call("/multi-exec", [
      ["SET", "{3}t", "1"],
      ["GET", "{3}t"],
    ]);
    expect(transaction.status).toBe(400);
    expect(String(transaction.json["error"])).toMatch(/not supported in front of a Redis Cluster/);
  });

  it("subscribers hear PUBLISH from any node", async () => {
    const channel = uniqueKey("chan");
    const controller = new AbortController();
    const response = await fetch(`${server.url}/subscribe/${channel}`, {
      headers: { authorization: "Bearer tok" },
      signal: controller.signal,
    });
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    expect(decoder.decode((await reader.read()).value)).toBe(`data: subscribe,${channel},1\n\n`);
    await (await makeNodeRedis(cluster.urls[2]!)).sendCommand(["PUBLISH", channel, "hello"]);
    expect(decoder.decode((await reader.read()).value)).toBe(`data: message,${channel},hello\n\n`);
    controller.abort();
  });
});
