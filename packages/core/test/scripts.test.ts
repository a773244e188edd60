import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { closeAll, harness, makeNodeRedis } from "@edgelock/testkit";
import { afterAll, describe, expect, it } from "vitest";
import type { Script } from "../src/engine/script.ts";
import { LUA_NAMES } from "../scripts/lua-names.generated.ts";
import { luaNameMap, renameLua } from "../scripts/lua-names.ts";

const root = join(import.meta.dirname, "..");

async function allScripts(): Promise<Script[]> {
  const modules = readdirSync(join(root, "src"), { recursive: true, encoding: "utf8" }).filter(
    (f) => f.endsWith("scripts.generated.ts"),
  );
  const loaded = await Promise.all(
    modules.map((m) => import(join(root, "src", m)) as Promise<Record<string, Script>>),
  );
  return loaded.flatMap((m) => Object.values(m));
}

afterAll(closeAll);

describe("scripts as data", () => {
  it("generated modules match the .lua files (run pnpm gen:scripts after editing Lua)", () => {
    expect(() =>
      execFileSync(
        join(root, "../../node_modules/.bin/tsx"),
        ["scripts/gen-scripts.ts", "--check"],
        { cwd: root, stdio: "pipe" },
      ),
    ).not.toThrow();
  });

  it("every SHA1 is the SHA1 of its source, and SCRIPT LOAD returns it", async () => {
    const scripts = await allScripts();
    expect(scripts.length).toBeGreaterThanOrEqual(6);
    const redis = await makeNodeRedis(harness().redisUrl);
    for (const script of scripts) {
      expect(createHash("sha1").update(script.source).digest("hex")).toBe(script.sha);
      expect(await redis.sendCommand(["SCRIPT", "LOAD", script.source])).toBe(script.sha);
    }
  });

  it("no script reads a client clock: every time comes from redis TIME", async () => {
    // The shipped names of the .lua files' now_ms and now_us (see scripts/lua-names.ts).
    const now = new RegExp(`\\b(${LUA_NAMES["now_ms"]}|${LUA_NAMES["now_us"]})\\b`);
    const timed = (await allScripts()).filter((script) => now.test(script.source));
    expect(timed.length).toBeGreaterThanOrEqual(6);
    for (const script of timed) expect(script.source).toContain("redis.call('TIME')");
  });

  it("the shipped Lua renames locals only: it runs as the readable form does", async () => {
    const redis = await makeNodeRedis(harness().redisUrl);
    // Locals (one shadowed), a name that is also a table field (kept everywhere), a global, and a
    // string that spells a local: each keeps what it means.
    const readable = [
      "local now_ms = tonumber(ARGV[1])",
      "local answer = { 'now_ms', stamp = now_ms + 1 }",
      "local stamp = 3",
      "answer[2] = answer.stamp",
      "do local now_ms = 7; answer[3] = now_ms end",
      "local function twice(value) return value * 2 end",
      "answer[4] = twice(answer.stamp)",
      "answer[5] = type(answer) .. stamp",
      "return answer",
    ].join("\n");
    const shipped = renameLua(readable, luaNameMap([readable]));
    for (const local of ["now_ms", "answer", "twice", "value"])
      expect(shipped).not.toMatch(new RegExp(`\\b${local}\\b(?!')`));
    expect(shipped).toContain("'now_ms'");
    expect(shipped).toContain("stamp = ");
    expect(shipped).toContain(".stamp");
    const run = (source: string) => redis.sendCommand(["EVAL", source, "0", "41"]);
    expect(await run(readable)).toEqual(["now_ms", 42, 7, 84, "table3"]);
    expect(await run(shipped)).toEqual(await run(readable));
  });
});
