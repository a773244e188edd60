import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT, workspacePackages, type Manifest } from "../lib/workspace.ts";

// Every public package as `pnpm pack` makes it, which is what `pnpm publish` uploads and what a
// user's npm installs: the licence, the metadata npm shows, dependencies a user can resolve, and
// an exports map that points at files in the tarball. Builds a package whose dist/ is missing.

const REPOSITORY = "https://github.com/edgelock/edgelock";
/** The packages published to npm; a new public package must be added here on purpose. */
const PUBLIC = [
  "@edgelock/cli",
  "@edgelock/cloudflare",
  "@edgelock/core",
  "@edgelock/hono",
  "@edgelock/rest-server",
  "@edgelock/vercel",
];
/** Files npm always packs, whatever `files` says. */
const ALWAYS_PACKED = ["package.json", "README.md", "LICENSE"];

interface Packed {
  readonly dir: string;
  readonly manifest: Manifest;
  /** Paths inside the tarball, without the leading `package/`. */
  readonly files: ReadonlySet<string>;
  readonly read: (path: string) => string;
}

const workspace = workspacePackages();
const privateNames = workspace.filter((p) => p.manifest.private === true).map((p) => p.name);
const packed = new Map<string, Packed>();
let scratch: string;

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), "edgelock-packages-"));
  for (const name of PUBLIC) {
    const pkg = workspace.find((p) => p.name === name);
    if (pkg === undefined) throw new Error(`${name} is not a workspace package`);
    if (!existsSync(join(pkg.dir, "dist")))
      execFileSync("pnpm", ["--filter", name, "build"], { cwd: REPO_ROOT, stdio: "ignore" });
    const out = join(scratch, `${name.replace("/", "-")}.tgz`);
    execFileSync("pnpm", ["pack", "--out", out], { cwd: pkg.dir, stdio: "ignore" });
    const unpacked = join(scratch, name.replace("/", "-"));
    execFileSync("mkdir", ["-p", unpacked]);
    execFileSync("tar", ["-xzf", out, "-C", unpacked]);
    const listing = execFileSync("tar", ["-tzf", out], { encoding: "utf8" });
    const files = new Set(
      listing
        .split("\n")
        .filter((line) => line !== "" && !line.endsWith("/"))
        .map((line) => line.replace(/^package\//, "")),
    );
    const read = (path: string) => readFileSync(join(unpacked, "package", path), "utf8");
    packed.set(name, {
      dir: pkg.dir,
      manifest: JSON.parse(read("package.json")) as Manifest,
      files,
      read,
    });
  }
}, 300_000);

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("the public packages", () => {
  it("are exactly the non-private packages of the workspace", () => {
    const published = workspace.filter((p) => p.manifest.private !== true).map((p) => p.name);
    expect(published.sort()).toEqual(PUBLIC);
  });
});

describe.each(PUBLIC)("%s, packed", (name) => {
  const pack = () => packed.get(name)!;

  it("carries the MIT licence, word for word the repository's", () => {
    const root = readFileSync(join(REPO_ROOT, "LICENSE"), "utf8");
    expect(root).toMatch(/^MIT License\n\nCopyright \(c\) 2026 edgelock contributors\n/);
    expect(pack().files.has("LICENSE")).toBe(true);
    expect(pack().read("LICENSE")).toBe(root);
    expect(pack().manifest["license"]).toBe("MIT");
  });

  it("says where it comes from, where to report bugs, what it runs on, how to find it", () => {
    const m = pack().manifest;
    expect(m["description"]).toEqual(expect.stringMatching(/\S{3}/));
    expect(m["repository"]).toEqual({
      type: "git",
      url: `git+${REPOSITORY}.git`,
      directory: relative(REPO_ROOT, pack().dir),
    });
    expect(m["homepage"]).toBe(`${REPOSITORY}/tree/main/${relative(REPO_ROOT, pack().dir)}#readme`);
    expect(m["bugs"]).toEqual({ url: `${REPOSITORY}/issues` });
    expect(m["engines"]).toEqual({ node: ">=20" });
    expect(m["keywords"]).toEqual(expect.arrayContaining(["edgelock"]));
    expect(pack().files.has("README.md")).toBe(true);
  });

  it("depends only on published packages, by range, never on a workspace or private one", () => {
    const m = pack().manifest;
    expect(m.devDependencies, "devDependencies name private packages: not published").toBe(
      undefined,
    );
    const text = JSON.stringify(m);
    expect(text).not.toContain("workspace:");
    for (const privateName of privateNames) expect(text).not.toContain(`"${privateName}"`);
    for (const field of ["dependencies", "peerDependencies", "optionalDependencies"] as const) {
      for (const [dep, range] of Object.entries(m[field] ?? {})) {
        expect(range, `${field}.${dep} is an exact version`).not.toMatch(
          /^=?v?\d+\.\d+\.\d+(-[\w.]+)?$/,
        );
        if (dep.startsWith("@edgelock/")) {
          expect(PUBLIC, `${dep} is not published`).toContain(dep);
          const version = workspace.find((p) => p.name === dep)!.manifest.version;
          expect(range, `${field}.${dep}`).toBe(`^${version}`);
        }
      }
    }
  });

  it("packs its build and the files npm always packs, no sources, tests or configs", () => {
    const m = pack().manifest;
    expect(m["files"]).toEqual(["dist"]);
    const stray = [...pack().files].filter(
      (file) => !ALWAYS_PACKED.includes(file) && !file.startsWith("dist/"),
    );
    expect(stray).toEqual([]);
    expect(
      [...pack().files].filter((file) => /\.(ts|mts)$/.test(file) && !/\.d\.m?ts$/.test(file)),
    ).toEqual([]);
    expect(m.scripts, "scripts build sources the tarball lacks").toBe(undefined);
  });

  it("exports, imports, types and bin point at files in the tarball", () => {
    const m = pack().manifest;
    const targets = [
      ...exportTargets(m["exports"]),
      // `#tcp-backends` and the like: resolved by the user's bundler under its conditions.
      ...exportTargets(m["imports"]),
      ...Object.values(typeof m["bin"] === "object" && m["bin"] !== null ? m["bin"] : {}),
      ...(["main", "module", "types"] as const)
        .map((field) => m[field])
        .filter((t) => t !== undefined),
    ].map(String);
    expect(exportTargets(m["exports"]).length).toBeGreaterThan(0);
    for (const target of targets) {
      expect(target, "a published path starts with ./dist/").toMatch(/^\.\/dist\//);
      expect(pack().files.has(target.replace(/^\.\//, "")), `${target} is in the tarball`).toBe(
        true,
      );
    }
  });
});

/** Every file path an exports map names (conditions and subpaths, nested). */
function exportTargets(exports: unknown): string[] {
  if (typeof exports === "string") return [exports];
  if (Array.isArray(exports)) return exports.flatMap(exportTargets);
  if (typeof exports === "object" && exports !== null)
    return Object.values(exports).flatMap(exportTargets);
  return [];
}
