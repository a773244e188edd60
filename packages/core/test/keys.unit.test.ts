import { describe, expect, it } from "vitest";
import { lockKeys, slotTagOf } from "../src/keys.ts";

/** Redis Cluster's hash-tag rule: the part between the first { and the next }, if non-empty. */
function slotTag(key: string): string {
  const open = key.indexOf("{");
  const close = key.indexOf("}", open + 1);
  return open >= 0 && close > open + 1 ? key.slice(open + 1, close) : key;
}

describe("keys", () => {
  it("every key of one lock has the schema version and the same hash tag", () => {
    for (const name of ["orders:42", "a{b", "x}y", "{}", "tag{user}rest", "ünïcødé 🚀"]) {
      const keys = Object.values(lockKeys("app", name));
      const tags = new Set(keys.map(slotTag));
      expect(tags.size, name).toBe(1);
      for (const key of keys) expect(key.startsWith("app:v1:")).toBe(true);
    }
  });

  it("a name with its own {tag} keeps it so callers can co-locate names", () => {
    expect(slotTagOf("orders{42}")).toBe("42");
    expect(slotTag(lockKeys("p", "orders{42}").lock)).toBe("42");
    expect(slotTag(lockKeys("p", "stock{42}").lock)).toBe("42");
    expect(slotTag(lockKeys("p", "plain").lock)).toBe("plain");
  });
});
