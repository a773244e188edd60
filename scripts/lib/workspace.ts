import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root. */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

/** The fields of a `package.json` the repository's checks read. */
export interface Manifest {
  readonly name: string;
  readonly version: string;
  readonly private?: boolean;
  readonly scripts?: Readonly<Record<string, string>>;
  readonly dependencies?: Readonly<Record<string, string>>;
  readonly devDependencies?: Readonly<Record<string, string>>;
  readonly peerDependencies?: Readonly<Record<string, string>>;
  readonly optionalDependencies?: Readonly<Record<string, string>>;
  readonly [field: string]: unknown;
}

export interface WorkspacePackage {
  readonly name: string;
  /** Absolute path of the package's folder. */
  readonly dir: string;
  readonly manifest: Manifest;
}

/** Every package of the pnpm workspace but the root, as pnpm itself lists them. */
export function workspacePackages(): WorkspacePackage[] {
  const listed = JSON.parse(
    execFileSync("pnpm", ["ls", "-r", "--depth", "-1", "--json"], {
      cwd: REPO_ROOT,
      encoding: "utf8",
    }),
  ) as { name: string; path: string }[];
  return listed
    .filter((entry) => resolve(entry.path) !== REPO_ROOT)
    .map((entry) => ({
      name: entry.name,
      dir: resolve(entry.path),
      manifest: readManifest(join(entry.path, "package.json")),
    }))
    .sort((a, b) => (a.dir < b.dir ? -1 : a.dir > b.dir ? 1 : 0));
}

export function readManifest(file: string): Manifest {
  return JSON.parse(readFileSync(file, "utf8")) as Manifest;
}
