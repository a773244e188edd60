import { describe, expect, it } from "vitest";
import { isClusterRefusal, ReplyError } from "../src/backend/backend.ts";

describe("Redis Cluster refusals", () => {
  it("TRYAGAIN and CLUSTERDOWN are refusals before running; other replies are not", () => {
    expect(
      isClusterRefusal(new ReplyError("TRYAGAIN Multiple keys request during rehashing of slot")),
    ).toBe(true);
    expect(
      isClusterRefusal(new ReplyError("Command failed: CLUSTERDOWN The cluster is down")),
    ).toBe(true);
    expect(isClusterRefusal(new ReplyError("ERR Error running script: TRYAGAINX"))).toBe(false);
    expect(isClusterRefusal(new ReplyError("NOSCRIPT No matching script"))).toBe(false);
    expect(isClusterRefusal(new Error("TRYAGAIN"))).toBe(false);
  });
});
