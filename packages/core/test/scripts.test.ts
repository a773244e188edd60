import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { closeAll, harness, makeNodeRedis } from "@edgelock/testkit";
import { afterAll, describe, expect, it } from "vitest";
import type { Script } from "../src/engine/script.ts";

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
    for (const script of await allScripts()) {
      if (/now_ms|now_us/.test(script.source))
        expect(script.source).toContain("redis.call('TIME')");
    }
  });
});
