import { mkdir, mkdtemp, realpath, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PRELUDE } from "./prelude.ts";
import { publicPackages, ROOT, run, type Tarballs } from "../lib/public-packages.ts";

/**
 * Third-party packages the snippets (and the packed declarations) may import, each taken from
 * the workspace package that depends on it, so the check needs no network.
 */
const THIRD_PARTY: ReadonlyArray<readonly [name: string, from: string]> = [
  ["@upstash/redis", "packages/core"],
  ["redis", "packages/core"],
  ["hono", "packages/hono"],
  ["@vercel/functions", "packages/vercel"],
  ["@cloudflare/workers-types", "packages/cloudflare"],
  ["@types/node", "."],
];

/**
 * A throwaway project in which snippets see edgelock as a user does: `node_modules/@edgelock/*`
 * is each packed tarball unpacked (or, with `source: "workspace"`, a link to the workspace
 * package, for tests that need no build), and the prelude beside it.
 */
export async function makeSnippetProject(
  packages: { readonly tarballs: Tarballs } | { readonly source: "workspace" },
): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "edgelock-docs-"));
  const modules = join(dir, "node_modules");
  await mkdir(join(modules, "@edgelock"), { recursive: true });
  await mkdir(join(modules, "@types"), { recursive: true });
  await mkdir(join(modules, "@upstash"), { recursive: true });
  await mkdir(join(modules, "@vercel"), { recursive: true });
  await mkdir(join(modules, "@cloudflare"), { recursive: true });
  if ("tarballs" in packages) {
    await Promise.all(
      [...packages.tarballs].map(async ([name, tgz]) => {
        const into = join(modules, name);
        await mkdir(into, { recursive: true });
        await run("tar", ["xzf", tgz, "-C", into, "--strip-components=1"]);
      }),
    );
  } else {
    for (const p of await publicPackages())
      await symlink(join(ROOT, "packages", p), join(modules, "@edgelock", p), "dir");
  }
  for (const [name, from] of THIRD_PARTY) {
    // pnpm links every direct dependency into the package's own node_modules.
    await symlink(
      await realpath(join(ROOT, from, "node_modules", name)),
      join(modules, name),
      "dir",
    );
  }
  await writeFile(join(dir, "prelude.d.ts"), PRELUDE);
  return dir;
}
