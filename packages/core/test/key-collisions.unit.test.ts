import { describe, expect, it } from "vitest";
import { crc16, slotOf, tagForSlot, CLUSTER_SLOTS } from "../src/cluster-slot.ts";
import { nameOfTag } from "../src/inspect/key-names.ts";
import {
  allSentinelKeys,
  fairLockKeys,
  hashTag,
  latchKeys,
  lockKeys,
  permitSemaphoreKeys,
  quorumKeys,
  readWriteLockKeys,
  semaphoreKeys,
  sentinelKey,
  slotTagOf,
} from "../src/keys.ts";
import { validateName } from "../src/validate.ts";

// Security review: a name is caller data (often built from user input), so no name may address
// the keys of another name or of another kind of primitive, whatever braces and colons it holds.

const KINDS = {
  lockKeys,
  fairLockKeys,
  readWriteLockKeys,
  semaphoreKeys,
  permitSemaphoreKeys,
  latchKeys,
  quorumKeys,
};
const SAMPLE_ID = "AAAAAAAAAAAAAAAAAAAAAA"; // an operation id's shape: 22 base64url characters

/** Every key (and every channel) one primitive can use: fixed parts, and prefixes completed by an id. */
function keysOf(
  build: (prefix: string, name: string) => Record<string, string>,
  prefix: string,
  name: string,
) {
  return Object.entries(build(prefix, name)).map(([part, key]) =>
    part.endsWith("Prefix") || part === "channel"
      ? { channel: part.startsWith("channel"), key: part === "channel" ? key : key + SAMPLE_ID }
      : { channel: false, key },
  );
}

/** The cluster's hash tag of a key: between the first { and the next }, when not empty. */
function clusterTag(key: string): string {
  const open = key.indexOf("{");
  const close = key.indexOf("}", open + 1);
  return open >= 0 && close > open + 1 ? key.slice(open + 1, close) : key;
}

const ATOMS = [
  "a",
  "b",
  "{",
  "}",
  ":",
  "{a}",
  "}:",
  ":{",
  "v1",
  "fair",
  "rw",
  "sem",
  "pes",
  "q",
  "lock",
  "op",
  "w",
  "%",
  "%7B",
  "~",
  "sentinel",
  " ",
];
const EXPLICIT = [
  "a}:v1:{b",
  "{a}:v1:{b}",
  "{x}:fair",
  "x",
  "{x}:pes",
  "x:sem",
  "{}",
  "{{a}}",
  "a{}b",
  "{a}",
  "orders{42}",
  "stock{42}",
  "ünïcødé 🚀",
];

function trickyNames(): string[] {
  const names = new Set(EXPLICIT);
  for (const x of ATOMS)
    for (const y of ATOMS) for (const z of ["", ...ATOMS]) names.add(x + y + z);
  return [...names].filter((n) => n.length > 0);
}

describe("names cannot reach another primitive's keys", () => {
  it("distinct (kind, name) pairs never share a key or a channel, and keys stay under the prefix", () => {
    const names = trickyNames();
    expect(names.length).toBeGreaterThan(10_000);
    const owners = new Map<string, string>();
    const problems: string[] = [];
    for (const name of names) {
      for (const [kind, build] of Object.entries(KINDS)) {
        const who = `${kind}(${JSON.stringify(name)})`;
        const tags = new Set<string>();
        for (const { channel, key } of keysOf(build, "app", name)) {
          const id = `${channel ? "channel" : "key"} ${key}`;
          const previous = owners.get(id);
          if (previous !== undefined && previous !== who)
            problems.push(`${who} and ${previous} share ${id}`);
          owners.set(id, who);
          // the prefix is never escaped, and the first { of every key is the name's tag
          if (!key.startsWith("app:v1:{")) problems.push(`${who} escapes the prefix: ${key}`);
          if (!channel) tags.add(clusterTag(key));
        }
        if (tags.size !== 1) problems.push(`${who} spans ${tags.size} slots`);
      }
    }
    expect(problems.slice(0, 5)).toEqual([]);
  });

  it("hashTag is injective and inverted by the inspector's nameOfTag", () => {
    const seen = new Map<string, string>();
    for (const name of trickyNames()) {
      const tagged = hashTag(name);
      expect(seen.get(tagged) ?? name).toBe(name);
      seen.set(tagged, name);
      expect(nameOfTag(tagged)).toBe(name);
    }
    expect(hashTag("a")).not.toBe(hashTag("{a}"));
    expect(lockKeys("p", "{x}:fair").lock).not.toBe(fairLockKeys("p", "x").lock);
    expect(lockKeys("p", "{x}:pes").queue).not.toBe(permitSemaphoreKeys("p", "x").queue);
  });

  it("a user {tag} still co-locates names; plain names keep their readable keys", () => {
    expect(slotTagOf("orders{42}")).toBe("42");
    expect(clusterTag(lockKeys("p", "stock{42}").lock)).toBe("42");
    expect(lockKeys("p", "orders:42").lock).toBe("p:v1:{orders:42}:lock");
  });

  it("sentinels lie outside every name's keys, and a slot sentinel shares its name's slot", () => {
    expect(sentinelKey("app", "x", "prefix")).toBe("app:v1:sentinel");
    for (const name of EXPLICIT) {
      const slot = slotOf(slotTagOf(name));
      expect(slotOf(clusterTag(sentinelKey("app", name, "slot")))).toBe(slot);
    }
    const all = allSentinelKeys("app", "slot");
    expect(new Set(all.map((k) => slotOf(clusterTag(k)))).size).toBe(CLUSTER_SLOTS);
  });

  it("slots follow the cluster specification's CRC16", () => {
    expect(crc16("123456789")).toBe(0x31c3);
    expect(slotOf("foo")).toBe(12182);
    expect(slotOf("bar")).toBe(5061);
    expect(slotOf(tagForSlot(0))).toBe(0);
  });

  it("names are bounded and free of control characters", () => {
    expect(() => validateName("name", "x".repeat(513))).toThrow(/at most 512/);
    for (const c of ["\n", "\r", "\u0000", "\u001b", "\u007f"])
      expect(() => validateName("name", `a${c}b`)).toThrow(/control/);
    expect(() => validateName("name", "")).toThrow(/non-empty/);
  });
});
