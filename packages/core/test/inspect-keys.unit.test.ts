import { describe, expect, it } from "vitest";
import { InvalidArgumentError } from "../src/index.ts";
import { globToRegExp } from "../src/inspect/glob.ts";
import { keyParser, nameOfTag } from "../src/inspect/key-names.ts";
import { KIND_INSPECTIONS } from "../src/inspect/kinds/all-kinds.ts";
import { hashTag, lockKeys, readWriteLockKeys, semaphoreKeys, fairLockKeys } from "../src/keys.ts";

describe("key names", () => {
  const parse = keyParser("app", KIND_INSPECTIONS);

  it("recovers a name that addresses the same keys, for plain, coloned and tagged names", () => {
    for (const name of ["a", "orders:42", "{tag}x", "x{tag}", "a}b", "{}", "sem:q", "über 🔒"]) {
      const recovered = nameOfTag(hashTag(name));
      expect(recovered).not.toBeNull();
      expect(hashTag(recovered ?? "")).toBe(hashTag(name));
    }
  });

  it("maps each primary key to its name and kind, longest part first", () => {
    expect(parse(lockKeys("app", "orders:42").lock)).toEqual({ name: "orders:42", kind: "lock" });
    expect(parse(lockKeys("app", "x:sem").queue)).toEqual({ name: "x:sem", kind: "lock" });
    expect(parse(semaphoreKeys("app", "x").queue)).toEqual({ name: "x", kind: "semaphore" });
    expect(parse(fairLockKeys("app", "{t}y").lock)).toEqual({ name: "{t}y", kind: "fair-lock" });
    expect(parse(readWriteLockKeys("app", "rw").readers)).toEqual({
      name: "rw",
      kind: "read-write-lock",
    });
  });

  it("ignores keys that outlive state, and other prefixes", () => {
    expect(parse(lockKeys("app", "a").fence)).toBeNull();
    expect(parse(lockKeys("app", "a").stats)).toBeNull();
    expect(parse(`${lockKeys("app", "a").opPrefix}abc`)).toBeNull();
    expect(parse(lockKeys("other", "a").lock)).toBeNull();
    expect(parse(lockKeys("app2", "a").lock)).toBeNull();
  });
});

describe("name globs", () => {
  it("follows Redis glob syntax on whole names", () => {
    const m = (glob: string, name: string) => globToRegExp("match", glob).test(name);
    expect(m("orders:*", "orders:42")).toBe(true);
    expect(m("orders:*", "x:orders:42")).toBe(false);
    expect(m("o?ders", "orders")).toBe(true);
    expect(m("[a-c]x", "bx")).toBe(true);
    expect(m("[^a-c]x", "bx")).toBe(false);
    expect(m("a\\*b", "a*b")).toBe(true);
    expect(m("a\\*b", "axb")).toBe(false);
    expect(m("a.b(c)", "a.b(c)")).toBe(true);
    expect(m("a.b", "axb")).toBe(false);
  });

  it("rejects an empty or unclosed pattern, naming the argument", () => {
    expect(() => globToRegExp("options.match", "")).toThrow(InvalidArgumentError);
    expect(() => globToRegExp("options.match", "[ab")).toThrow(/options\.match/);
  });
});
