import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, readdir, readFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

export const run = promisify(execFile);

/** The repository root. */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

/** The packages published to npm: every folder under `packages/` whose manifest is not private. */
export async function publicPackages(): Promise<string[]> {
  const found: string[] = [];
  for (const dir of (await readdir(join(ROOT, "packages"))).sort()) {
    const file = join(ROOT, "packages", dir, "package.json");
    if (!existsSync(file)) continue;
    const manifest = JSON.parse(await readFile(file, "utf8")) as { private?: boolean };
    if (manifest.private !== true) found.push(dir);
  }
  return found;
}

/** `@edgelock/core` → `/tmp/…/edgelock-core-0.1.0.tgz`. */
export type Tarballs = ReadonlyMap<string, string>;

/**
 * `pnpm pack` of every public package into `dest`, as `pnpm publish` would upload them
 * (`publishConfig` applied, `workspace:` ranges replaced). Needs `pnpm build` first.
 */
export async function packPublicPackages(dest: string): Promise<Tarballs> {
  const packages = await publicPackages();
  const missing = packages.filter((p) => !existsSync(join(ROOT, "packages", p, "dist")));
  if (missing.length > 0)
    throw new Error(`not built: packages/{${missing.join(",")}}/dist is missing — run pnpm build`);
  await mkdir(dest, { recursive: true });
  await Promise.all(
    packages.map((p) =>
      run("pnpm", ["pack", "--pack-destination", dest], { cwd: join(ROOT, "packages", p) }),
    ),
  );
  const files = await readdir(dest);
  const tarballs = new Map<string, string>();
  for (const p of packages) {
    const file = files.find((f) => new RegExp(`^edgelock-${p}-\\d.*\\.tgz$`).test(f));
    if (!file) throw new Error(`pnpm pack wrote no tarball for @edgelock/${p} in ${dest}`);
    tarballs.set(`@edgelock/${p}`, join(dest, file));
  }
  // A published package may depend only on published packages (never on a private one).
  for (const p of packages) {
    const manifest = JSON.parse(
      await readFile(join(ROOT, "packages", p, "package.json"), "utf8"),
    ) as { dependencies?: Record<string, string>; peerDependencies?: Record<string, string> };
    for (const dep of Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies }))
      if (dep.startsWith("@edgelock/") && !tarballs.has(dep))
        throw new Error(`@edgelock/${p} depends on ${dep}, which is not published`);
  }
  return tarballs;
}
