import { existsSync, readdirSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { configDefaults, type TestProjectInlineConfiguration } from "vitest/config";

// Every package runs as two vitest projects, told apart by file name so that a new test lands in
// the right one without editing a list:
//   `<pkg>:unit`  test/**/*.unit.test.ts — pure code: no redis-server, no workerd, no global
//                 setup; fast, and run first (`pnpm test:unit`, the `unit` stage of `pnpm test`).
//   `<pkg>`       every other test — real Redis over REST, TCP, cluster or workerd (the package's
//                 own vitest.config, which excludes the unit files with EXCLUDE_UNIT_TESTS).
// and one more, `campaign:adversary` (ADVERSARY_PROJECTS below), the adversary gate and mutations.

/** The files of a package's unit project (relative to the package). */
export const UNIT_TESTS = "test/**/*.unit.test.ts";

/** The `--project` filter that selects every unit project. */
export const UNIT_PROJECTS = "*:unit";

/**
 * The campaign's adversary gate and mutations (`campaign:adversary`, campaign/
 * vitest.adversary.config.ts): the last stage of `pnpm test`, alone on the machine.
 */
export const ADVERSARY_PROJECTS = "*:adversary";
export const ADVERSARY_TESTS = ["test/adversary.test.ts", "test/mutations.test.ts"] as const;

/** The `--project` filter that selects the integration projects: every name without a `:`. */
export const INTEGRATION_PROJECTS = "!*:*";

/** For a package's integration config: vitest's default excludes plus the unit files. */
export const EXCLUDE_UNIT_TESTS = [...configDefaults.exclude, UNIT_TESTS];

const REPO_ROOT = dirname(fileURLToPath(import.meta.url));

/**
 * One unit project per package folder (`packages/*`, `bench`, …: a folder, or a parent folder
 * ending in `/*`) that has a vitest config, generated here rather than written in each package,
 * so a package's first *.unit.test.ts runs without a config of its own. Named after the folder:
 * `core:unit`, `workers/inspector:unit`, `campaign:unit`.
 */
export function unitProjects(folders: readonly string[]): TestProjectInlineConfiguration[] {
  const dirs = folders.flatMap((folder) =>
    folder.endsWith("/*")
      ? readdirSync(join(REPO_ROOT, folder.slice(0, -2))).map((name) =>
          join(folder.slice(0, -2), name),
        )
      : [folder],
  );
  return dirs
    .filter((dir) =>
      ["ts", "mts"].some((ext) => existsSync(join(REPO_ROOT, dir, `vitest.config.${ext}`))),
    )
    .sort()
    .map((dir) => ({
      test: {
        name: `${dir.startsWith("packages/") ? relative("packages", dir) : dir}:unit`,
        root: join(REPO_ROOT, dir),
        include: [UNIT_TESTS],
        testTimeout: 10_000,
      },
    }));
}
