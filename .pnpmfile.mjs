// pnpm hooks for this workspace.

/**
 * What `pnpm pack` and `pnpm publish` put in a published package.json: not the package's
 * devDependencies (they name private workspace packages such as @edgelock/testkit, and npm
 * ignores them in an installed package anyway) nor its scripts (they build and check sources the
 * tarball does not contain). Checked by scripts/packages.test.ts.
 */
export const hooks = {
  beforePacking(manifest) {
    delete manifest.devDependencies;
    delete manifest.scripts;
    return manifest;
  },
};
