import { describe, expect, it } from "vitest";
import { byAddress, clusterRoute, combineReplies, nextScanCursor, scanStep } from "../src/index.ts";

describe("Redis Cluster routing of raw commands", () => {
  it("scripts go by KEYS[1]; keyless scripts and commands to any node", () => {
    expect(clusterRoute(["EVALSHA", "abc", 2, "p:v1:{a}:lock", "p:v1:{a}:fence", "x"])).toEqual({
      to: "key",
      key: "p:v1:{a}:lock",
    });
    expect(clusterRoute(["eval", "return 1", "0"])).toEqual({ to: "any" });
    expect(clusterRoute(["PING"])).toEqual({ to: "any" });
    expect(clusterRoute(["PUBLISH", "channel", "m"])).toEqual({ to: "any" });
  });

  it("data commands by their key, wherever the command puts it", () => {
    expect(clusterRoute(["ZCARD", "k"])).toEqual({ to: "key", key: "k" });
    expect(clusterRoute(["ZUNION", 2, "a", "b"])).toEqual({ to: "key", key: "a" });
    expect(clusterRoute(["OBJECT", "ENCODING", "k"])).toEqual({ to: "key", key: "k" });
    expect(clusterRoute(["XREAD", "COUNT", 1, "STREAMS", "s", "0"])).toEqual({
      to: "key",
      key: "s",
    });
  });

  it("script cache and whole-data-set commands go to every master", () => {
    expect(clusterRoute(["SCRIPT", "FLUSH"])).toEqual({ to: "masters", combine: "first" });
    expect(clusterRoute(["DBSIZE"])).toEqual({ to: "masters", combine: "sum" });
    expect(clusterRoute(["KEYS", "*"])).toEqual({ to: "masters", combine: "concat" });
    expect(clusterRoute(["SCAN", "0"])).toEqual({ to: "scan" });
    expect(combineReplies("sum", [1, 2, 3])).toBe(6);
    expect(combineReplies("concat", [["a"], [], ["b"]])).toEqual(["a", "b"]);
    expect(combineReplies("first", ["OK", "OK"])).toBe("OK");
  });

  it("one SCAN cursor walks every master in turn and ends with 0", () => {
    expect(scanStep("0", 3)).toEqual({ node: 0, cursor: "0" });
    expect(nextScanCursor(0, "17", 3)).toBe(String(17 * 1024));
    expect(scanStep(String(17 * 1024), 3)).toEqual({ node: 0, cursor: "17" });
    expect(nextScanCursor(0, "0", 3)).toBe("1");
    expect(scanStep("1", 3)).toEqual({ node: 1, cursor: "0" });
    expect(nextScanCursor(2, "0", 3)).toBe("0");
    expect(scanStep(String(2n ** 64n * 1024n + 2n), 3)).toEqual({
      node: 2,
      cursor: String(2n ** 64n),
    });
    expect(scanStep("5", 3)).toBeUndefined();
    expect(scanStep("-1", 3)).toBeUndefined();
    expect(byAddress([{ address: "b:2" }, { address: "a:1" }]).map((n) => n.address)).toEqual([
      "a:1",
      "b:2",
    ]);
  });
});
