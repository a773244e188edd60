import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// The published declarations, built as `pnpm build` builds them (tsup), typechecked the way a
// user's project would: outside the workspace, `skipLibCheck` off, no @types, neither
// @upstash/redis nor redis installed, and a Worker's `lib: ["es2024"]` (no esnext.disposable).

const core = join(import.meta.dirname, "..");
let consumer: string;

beforeAll(async () => {
  consumer = mkdtempSync(join(tmpdir(), "edgelock-declarations-"));
  const pkg = join(consumer, "node_modules/@edgelock/core");
  const dist = join(pkg, "dist");
  mkdirSync(dist, { recursive: true });
  await new Promise<void>((resolve, reject) =>
    execFile(
      join(core, "../../node_modules/.bin/tsup"),
      ["--dts-only", "--out-dir", dist],
      { cwd: core, timeout: 180_000 },
      (error, _stdout, stderr) =>
        error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(),
    ),
  );
  const manifest = JSON.parse(readFileSync(join(core, "package.json"), "utf8")) as {
    publishConfig: { exports: unknown };
  };
  writeFileSync(
    join(pkg, "package.json"),
    JSON.stringify({
      name: "@edgelock/core",
      type: "module",
      exports: manifest.publishConfig.exports,
    }),
  );
  for (const [name, text] of Object.entries(FILES)) writeFileSync(join(consumer, name), text);
}, 200_000);

afterAll(() => {
  if (consumer) rmSync(consumer, { recursive: true, force: true });
});

const FILES: Record<string, string> = {
  // What the runtime's own types give a Worker (worker-configuration.d.ts) or Node (@types/node).
  "runtime.d.ts": "interface AbortSignal { readonly aborted: boolean; readonly reason: any }\n",
  "plain.ts": `
import { createClient, quorumLock, type HeldLock, type RedisInput } from "@edgelock/core";
import { createLockClient } from "@edgelock/core/lock";
declare const env: { UPSTASH_REDIS_REST_URL: string; UPSTASH_REDIS_REST_TOKEN: string };
const redis: RedisInput = { url: env.UPSTASH_REDIS_REST_URL, token: env.UPSTASH_REDIS_REST_TOKEN };
const edgelock = createClient({ redis });
export async function pay(): Promise<number> {
  const held: HeldLock | null = await edgelock.lock("orders:42").tryAcquire({ waitMs: 1_000 });
  if (held === null) return 0;
  try {
    return held.fence;
  } finally {
    await held.release();
  }
}
export const viaWithLock = () =>
  createLockClient({ redis }).lock("a").withLock(async (held) => held.fence, { waitMs: 5_000 });
export const quorum = () => quorumLock([edgelock], "q").acquire();
export const dispose = async () => (await edgelock.semaphore("s").acquire())[Symbol.asyncDispose]();
`,
  "redis-option.ts": `
import { createClient } from "@edgelock/core";
// @ts-expect-error a URL string
createClient({ redis: "redis://127.0.0.1:6379" });
// @ts-expect-error an empty object
createClient({ redis: {} });
// @ts-expect-error the token is missing
createClient({ redis: { url: "https://eu1-example.upstash.io" } });
// @ts-expect-error not a client
createClient({ redis: 42 });
createClient({ redis: { url: "https://eu1-example.upstash.io", token: "t" } });
createClient({ redis: { kind: "rest", command: async () => null } });
createClient({ redis: { sendCommand: async (args: string[]) => args.length } });
`,
  "using.ts": `
import { createClient } from "@edgelock/core";
const edgelock = createClient({ redis: { url: "https://eu1-example.upstash.io", token: "t" } });
export async function critical(): Promise<number> {
  await using held = await edgelock.lock("orders:42").acquire({ waitMs: 5_000 });
  return held.fence;
}
`,
};

/** Diagnostics of a project of `files` in the consumer directory, as `tsc --noEmit` reports them. */
function typecheck(files: string[], lib: string[], target = ts.ScriptTarget.ES2022): string[] {
  const options: ts.CompilerOptions = {
    target,
    lib: lib.map((l) => `lib.${l}.d.ts`),
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    strict: true,
    skipLibCheck: false,
    types: [],
    noEmit: true,
  };
  const program = ts.createProgram(
    files.map((f) => join(consumer, f)),
    options,
  );
  return ts
    .getPreEmitDiagnostics(program)
    .map(
      (d) =>
        `${d.file ? d.file.fileName.slice(consumer.length + 1) : ""} TS${d.code}: ${ts.flattenDiagnosticMessageText(d.messageText, " ")}`,
    );
}

describe("the published declarations", () => {
  it("typecheck with lib es2024, skipLibCheck off and no @types (a create-cloudflare Worker)", () => {
    expect(typecheck(["runtime.d.ts", "plain.ts"], ["es2024"])).toEqual([]);
  });

  it("name no AsyncDisposable and import neither @upstash/redis nor redis", () => {
    const dist = join(consumer, "node_modules/@edgelock/core/dist");
    const text = readdirSync(dist)
      .filter((f) => f.endsWith(".d.ts"))
      .map((f) => readFileSync(join(dist, f), "utf8"))
      .join("\n");
    const code = text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/\/\/.*$/gm, "");
    expect(code).toContain("declare global");
    expect(code.match(/\bAsyncDisposable\b/g)).toBeNull();
    expect(code).not.toMatch(/["'](@upstash\/redis|redis)(\/[^"']*)?["']/);
    const resolved = ts.resolveModuleName(
      "@upstash/redis",
      join(consumer, "plain.ts"),
      { moduleResolution: ts.ModuleResolutionKind.Bundler },
      ts.sys,
    );
    expect(resolved.resolvedModule).toBeUndefined();
  });

  it("make a wrong redis value a compile error, with neither @upstash/redis nor redis installed", () => {
    expect(typecheck(["runtime.d.ts", "redis-option.ts"], ["es2024"])).toEqual([]);
  });

  it("let `await using` typecheck once the lib has esnext.disposable, without conflicting with it", () => {
    const files = ["runtime.d.ts", "plain.ts", "using.ts"];
    expect(typecheck(files, ["es2024", "esnext.disposable"])).toEqual([]);
    expect(typecheck(files, ["esnext"])).toEqual([]);
    expect(typecheck(files, ["esnext"], ts.ScriptTarget.ESNext)).toEqual([]);
  });

  it("`await using` itself needs the global AsyncDisposable and Disposable types (TypeScript 5.9), whatever the target", () => {
    // What the JSDoc of AsyncDisposableHold and the guides tell users: add esnext.disposable.
    for (const target of [ts.ScriptTarget.ES2022, ts.ScriptTarget.ESNext]) {
      expect(typecheck(["runtime.d.ts", "using.ts"], ["es2024"], target)).toEqual([
        " TS2318: Cannot find global type 'AsyncDisposable'.",
        " TS2318: Cannot find global type 'Disposable'.",
      ]);
    }
  });
});
