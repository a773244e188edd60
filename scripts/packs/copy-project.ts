import { cp, readFile, writeFile } from "node:fs/promises";
import { basename, join } from "node:path";
import type { Tarballs } from "../lib/public-packages.ts";

/** What never leaves the repository with an example: installs, builds, local secrets. */
const LEFT_BEHIND = new Set(["node_modules", "dist", ".wrangler", ".next", ".dev.vars", ".vercel"]);

type Manifest = {
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  overrides?: Record<string, string>;
};

/**
 * Copies an example out of the repository as a user would copy it, then points its `@edgelock/*`
 * dependencies at the packed tarballs, as if they came from the registry. Throws when the
 * manifest could not be installed outside the workspace (`workspace:` ranges, private packages).
 */
export async function copyProject(src: string, dest: string, tarballs: Tarballs): Promise<void> {
  await cp(src, dest, {
    recursive: true,
    filter: (path) => !LEFT_BEHIND.has(basename(path)),
  });
  const file = join(dest, "package.json");
  const manifest = JSON.parse(await readFile(file, "utf8")) as Manifest;
  const problems: string[] = [];
  for (const field of ["dependencies", "devDependencies"] as const) {
    for (const [name, range] of Object.entries(manifest[field] ?? {})) {
      if (range.startsWith("workspace:"))
        problems.push(
          `${field}.${name} is "${range}": npm cannot install it outside the workspace`,
        );
      else if (name.startsWith("@edgelock/")) {
        const tgz = tarballs.get(name);
        if (!tgz) problems.push(`${field}.${name}: not a published package`);
        else manifest[field]![name] = `file:${tgz}`;
      }
    }
  }
  if (problems.length > 0)
    throw new Error(`${src}/package.json would fail for a user:\n  ${problems.join("\n  ")}`);
  // Transitive @edgelock/* dependencies (e.g. @edgelock/vercel → @edgelock/cloudflare) come from
  // the tarballs too, never from the registry.
  manifest.overrides = {
    ...manifest.overrides,
    ...Object.fromEntries([...tarballs].map(([name, tgz]) => [name, `file:${tgz}`])),
  };
  await writeFile(file, JSON.stringify(manifest, null, 2) + "\n");
}
