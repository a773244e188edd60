import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { writeShims } from "./old-core/shims.ts";

/**
 * `pnpm --filter @edgelock/campaign against-old-core [commit]`: the finished adversarial
 * campaign, through the public API, against the core as it was at `commit` (default c6a5b43,
 * where issue 13 was filed). A throw-away git worktree of that commit; a resolve hook points
 * every import of the core (the package and the campaign's deep imports) at its
 * packages/core/src; a few shims for modules that did not exist then; every config
 * (EDGELOCK_ADVERSARY_RUNS runs × EDGELOCK_CAMPAIGN_SECONDS s, EDGELOCK_ADVERSARY_CONFIG=a,b to
 * pick), violations per config and kind. The worktree is removed afterwards.
 */
const commit = process.argv[2] ?? "c6a5b43";
const here = import.meta.dirname;
const repo = execFileSync("git", ["rev-parse", "--show-toplevel"], { cwd: here }).toString().trim();
const dir = mkdtempSync(join(tmpdir(), `edgelock-${commit}-`));
execFileSync("git", ["worktree", "add", "--detach", dir, commit], { cwd: repo, stdio: "ignore" });
try {
  const coreSrc = join(dir, "packages/core/src");
  writeShims(coreSrc);
  const result = spawnSync(
    "pnpm",
    [
      "exec",
      "tsx",
      "--import",
      resolve(here, "old-core/register.mjs"),
      resolve(here, "old-core/run-configs.ts"),
    ],
    {
      cwd: resolve(here, ".."),
      stdio: "inherit",
      env: { ...process.env, EDGELOCK_OLD_CORE_SRC: coreSrc },
    },
  );
  process.exitCode = result.status ?? 1;
} finally {
  execFileSync("git", ["worktree", "remove", "--force", dir], { cwd: repo, stdio: "ignore" });
}
