import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// What docs/architecture.md and docs/adding-a-primitive.md promise a maintainer, held true:
// every primitive folder's index.ts is reached from the root entry and its header names the
// folder's scripts, its acquire (or await) path and its conformance suite, each of which exists;
// and every path the architecture page names exists.

const CORE = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const SRC = join(CORE, "src");
const REPO = resolve(CORE, "../..");
const FOLDERS = [
  "lock",
  "fair-lock",
  "read-write-lock",
  "multi-lock",
  "quorum",
  "semaphore",
  "permit-semaphore",
  "latch",
];

const read = (path: string) => readFileSync(path, "utf8");
const header = (folder: string) =>
  /^\/\*\*([\s\S]*?)\*\//.exec(read(join(SRC, folder, "index.ts")))?.[1] ?? "";

describe("primitive folders", () => {
  it("are every primitive folder there is", () => {
    // A primitive folder has its own scripts and an index.ts; engine/ and quarantine/ have no
    // index.ts, inspect/ is the inspector of all of them.
    const primitive = readdirSync(SRC, { withFileTypes: true })
      .filter((d) => d.isDirectory() && d.name !== "inspect")
      .filter((d) =>
        ["scripts.generated.ts", "index.ts"].every((f) => existsSync(join(SRC, d.name, f))),
      )
      .map((d) => d.name);
    expect(primitive.sort()).toEqual([...FOLDERS].sort());
  });

  const rootEntry = read(join(SRC, "index.ts"));
  for (const folder of FOLDERS) {
    describe(folder, () => {
      it("is exported by src/index.ts through its own index.ts", () => {
        expect(rootEntry).toContain(`from "./${folder}/index.ts"`);
      });

      it("names its scripts, its acquire path and its suite in the index.ts header", () => {
        const text = header(folder);
        expect(text).toMatch(/Scripts:/);
        expect(text).toMatch(/(Acquire|Await) path/);
        const lua = readdirSync(join(SRC, folder)).filter((f) => f.endsWith(".lua"));
        for (const script of lua)
          expect(text, `${folder}/index.ts names ${script}`).toContain(script);
        const suite = /Suite: (packages\/core\/test\/conformance\/[\w.-]+\.ts)/.exec(text)?.[1];
        expect(suite, `${folder}/index.ts names its suite`).toBeDefined();
        expect(existsSync(join(REPO, suite!)), suite).toBe(true);
        const rows = read(join(CORE, "test/conformance/suites.ts"));
        expect(rows, `${suite} is a row of suites.ts`).toContain(
          suite!.split("/").pop()!.replace(/\.ts$/, ""),
        );
      });

      it("names only files that exist", () => {
        for (const [name] of header(folder).matchAll(/(?:\.\.\/)?[\w./-]+\.(?:ts|lua)\b/g)) {
          const path = name.startsWith("packages/") ? join(REPO, name) : join(SRC, folder, name);
          expect(existsSync(path), `${folder}/index.ts names ${name}`).toBe(true);
        }
      });
    });
  }
});

describe("docs/architecture.md", () => {
  it("names only paths that exist", () => {
    const doc = read(join(REPO, "docs/architecture.md"));
    const paths = [...doc.matchAll(/`([\w.<>*/-]+\/[\w.<>*-]+\.(?:ts|lua|md))`/g)].map(
      (m) => m[1]!,
    );
    expect(paths.length).toBeGreaterThan(50);
    for (const path of paths) {
      if (/[<*]/.test(path)) continue; // a pattern (`<primitive>.conformance.ts`, `protocol-*.lua`)
      const found = [REPO, CORE, SRC, join(REPO, "packages")].some((root) =>
        existsSync(join(root, path)),
      );
      expect(found, `docs/architecture.md names ${path}`).toBe(true);
    }
  });
});
