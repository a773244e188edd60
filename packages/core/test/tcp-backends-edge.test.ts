import { createClient as nodeClient } from "redis";
import { harness } from "@edgelock/testkit";
import { describe, expect, it } from "vitest";
import { tcpBackendOf as edgeTcp } from "../src/backend/tcp-backends.edge.ts";
import { tcpBackendOf as nodeTcp } from "../src/backend/tcp-backends.ts";
import { InvalidArgumentError } from "../src/index.ts";

// What `#tcp-backends` resolves to: the TCP adapters in Node, none in a Worker/edge/browser build.
describe("#tcp-backends", () => {
  const client = nodeClient({ url: harness().redisUrl });
  const shape = client as unknown as Record<string, unknown>;

  it("in Node, makes a TCP backend of a node-redis client and nothing of other shapes", () => {
    expect(nodeTcp(shape)?.kind).toBe("tcp");
    expect(nodeTcp({ url: "https://x", token: "t" })).toBeUndefined();
  });

  it("in a Worker build, refuses a node-redis client naming `redis` and says what to pass", () => {
    expect(() => edgeTcp(shape)).toThrow(InvalidArgumentError);
    expect(() => edgeTcp(shape)).toThrow(/redis.*\{ url, token \}.*nodeRedisBackend/s);
    expect(edgeTcp({ url: "https://x", token: "t" })).toBeUndefined();
  });
});
