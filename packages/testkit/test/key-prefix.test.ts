import { afterAll, describe, expect, it } from "vitest";
import {
  cleanupPrefix,
  closeAll,
  harness,
  keyPrefix,
  makeNodeRedis,
  randomRunScope,
  scopeKeyPrefixes,
} from "../src/index.ts";
import { escapeGlob } from "../src/cleanup-prefix.ts";

afterAll(closeAll);

describe("keyPrefix", () => {
  it("is unique, of one fixed length, so no prefix is a prefix of another", () => {
    const prefixes = Array.from({ length: 10_000 }, keyPrefix);
    expect(new Set(prefixes).size).toBe(prefixes.length);
    for (const prefix of prefixes) expect(prefix).toMatch(/^t-[0-9a-z]{12}$/);
  });
});

describe("cleanupPrefix", () => {
  it("removes every key under the prefix and nothing else", async () => {
    const redis = await makeNodeRedis(harness().redisUrl);
    const mine = keyPrefix();
    const other = keyPrefix();
    const keys = Array.from({ length: 1_200 }, (_, i) => `${mine}:v1:{k${i}}:lock`);
    for (let i = 0; i < keys.length; i += 400)
      await redis.mSet(keys.slice(i, i + 400).map((k) => [k, "1"] as [string, string]));
    await redis.set(`${other}:v1:{k}:lock`, "1");
    await redis.set(`x${mine}`, "1");

    expect(await cleanupPrefix(harness().redisUrl, mine)).toBe(keys.length);
    expect(await redis.exists(keys.slice(0, 10))).toBe(0);
    expect(await redis.get(`${other}:v1:{k}:lock`)).toBe("1");
    expect(await redis.get(`x${mine}`)).toBe("1");
    expect(await cleanupPrefix(harness().redisUrl, mine)).toBe(0);
    await redis.del([`${other}:v1:{k}:lock`, `x${mine}`]);
  });

  it("takes glob characters in the prefix literally", async () => {
    const redis = await makeNodeRedis(harness().redisUrl);
    const base = keyPrefix();
    await redis.set(`${base}*[a]:one`, "1");
    await redis.set(`${base}x[a]:two`, "1");
    expect(escapeGlob("a*b?c[d]e\\")).toBe("a\\*b\\?c\\[d\\]e\\\\");
    expect(await cleanupPrefix(harness().redisUrl, `${base}*[a]`)).toBe(1);
    expect(await redis.get(`${base}x[a]:two`)).toBe("1");
    await cleanupPrefix(harness().redisUrl, base);
  });
});

// Last in this file: the scope is the file's module state and stays set for what follows.
describe("scopeKeyPrefixes", () => {
  it("puts a run's scope before every later prefix and refuses a scope SCAN MATCH would widen", () => {
    const run = randomRunScope();
    expect(run).toMatch(/^live-[0-9a-z]{12}-$/);
    expect(() => scopeKeyPrefixes("")).toThrow(/runScope/);
    expect(() => scopeKeyPrefixes("live-*")).toThrow(/runScope/);
    scopeKeyPrefixes(run);
    const prefixes = Array.from({ length: 100 }, keyPrefix);
    for (const prefix of prefixes) expect(prefix).toMatch(/^live-[0-9a-z]{12}-t-[0-9a-z]{12}$/);
    expect(new Set(prefixes).size).toBe(prefixes.length);
  });
});
