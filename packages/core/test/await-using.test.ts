import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { harness } from "@edgelock/testkit";
import ts from "typescript";
import { describe, expect, it } from "vitest";

// Node 20 has no native `await using`; users get TypeScript's lowered output. Compile a program
// with tsc's own emitter (target ES2022) and run it in a plain Node 20 process.
const program = `
import { Redis } from "@upstash/redis";
import { createClient } from "@edgelock/core";
const edgelock = createClient({ redis: new Redis({ url: process.env.URL!, token: process.env.TOKEN! }), prefix: process.env.PREFIX! });
const lock = edgelock.lock("scoped");
async function critical(): Promise<void> {
  await using held = await lock.acquire();
  console.log("inside", await lock.isLocked(), held.fence > 0);
  throw new Error("user error survives dispose");
}
try { await critical(); } catch (e) { console.log("caught", (e as Error).message); }
console.log("after", await lock.isLocked());
`;

describe("await using", () => {
  it("releases on scope exit through TypeScript's lowered output on Node 20", () => {
    const { outputText } = ts.transpileModule(program, {
      compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext },
    });
    expect(outputText).not.toContain("await using");
    // Inside the package, so that "@edgelock/core" resolves to itself and "@upstash/redis" to its devDependency.
    mkdirSync(join(import.meta.dirname, "../.tmp"), { recursive: true });
    const dir = mkdtempSync(join(import.meta.dirname, "../.tmp/using-"));
    const file = join(dir, "program.ts");
    writeFileSync(file, outputText);
    const env = harness();
    const out = execFileSync(join(import.meta.dirname, "../../../node_modules/.bin/tsx"), [file], {
      cwd: join(import.meta.dirname, ".."),
      env: { ...process.env, URL: env.restUrl, TOKEN: env.restToken, PREFIX: `using${Date.now()}` },
      encoding: "utf8",
    });
    expect(out.trim().split("\n")).toEqual([
      "inside true true",
      "caught user error survives dispose",
      "after false",
    ]);
  });
});
