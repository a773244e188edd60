import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { clusters } from "../lib/ts-leaks.ts";
import { checkProgram, createProgram, optionsKey, parseConfig } from "../lib/ts-program.ts";
import type { Project } from "../lib/ts-program.ts";

// pnpm typecheck puts projects in one program only where that changes nothing for any of them.
// Small projects in a temporary folder show each case.

const root = mkdtempSync(join(tmpdir(), "edgelock-typecheck-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const OPTIONS = {
  strict: true,
  noEmit: true,
  types: [],
  lib: ["ES2022", "DOM"],
  skipLibCheck: true,
};

function project(name: string, files: Record<string, string>, options: object = OPTIONS): Project {
  const dir = join(root, name);
  mkdirSync(join(dir, "src"), { recursive: true });
  writeFileSync(
    join(dir, "tsconfig.json"),
    JSON.stringify({ compilerOptions: options, include: ["src"] }),
  );
  for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, "src", file), text);
  return { name, config: join(dir, "tsconfig.json") };
}

const declares = project("declares", {
  "globals.ts": "export {};\ndeclare global {\n  var edgelockProbe: string;\n}\n",
});
const uses = project("uses", {
  "use.ts": "export const probe: string = globalThis.edgelockProbe;\n",
});
const plain = project("plain", { "plain.ts": "export const one = 1;\n" });
const neutral = project("neutral", {
  "url.ts": "export {};\ndeclare global {\n  interface URL {}\n}\n",
});
const loose = project(
  "loose",
  { "loose.ts": "export const two = 2;\n" },
  { ...OPTIONS, strict: false },
);

const names = (found: { projects: readonly Project[] }[]) =>
  found.map((cluster) => cluster.projects.map((p) => p.name).sort());

describe("pnpm typecheck's programs", () => {
  it("group projects only by identical compiler options", () => {
    const key = (p: Project) => optionsKey(parseConfig(p.config));
    expect(key(uses)).toBe(key(declares));
    expect(key(plain)).toBe(key(declares));
    expect(key(loose)).not.toBe(key(plain));
  });

  it("keep a project apart from one whose global declarations it would otherwise see", () => {
    // The leak this prevents: in one program, `uses` typechecks against `declares`' global.
    expect(checkProgram(createProgram([uses]), false).errors).toBe(1);
    expect(checkProgram(createProgram([declares, uses]), false).errors).toBe(0);

    const group = [declares, uses, plain];
    const found = clusters(createProgram(group), group);
    expect(names(found)).toEqual(expect.arrayContaining([["declares"], ["plain", "uses"]]));
    expect(found).toHaveLength(2);
  });

  it("share a program where a global declaration merges into the lib's as a no-op", () => {
    const group = [neutral, plain, uses];
    expect(names(clusters(createProgram(group), group))).toEqual([["neutral", "plain", "uses"]]);
  });
});
