// pnpm check:docs — every TypeScript/JavaScript block of README.md, docs/*.md and the package and
// example READMEs, typechecked against the packed packages (run `pnpm build` first); every
// `<!-- file: … -->` block compared with its file (`--write` copies the files into their blocks
// first). The conventions are in the README's "Working on it".
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { checkDeclarations } from "./docs/check-declarations.ts";
import { checkDocs, docFiles, writeFileBlocks } from "./docs/check-docs.ts";
import { makeSnippetProject } from "./docs/snippet-project.ts";
import { packPublicPackages } from "./lib/public-packages.ts";

const started = performance.now();
if (process.argv.includes("--write")) {
  // Copies each file into its <!-- file: … --> block, then checks as usual.
  for (const file of await writeFileBlocks(await docFiles())) console.log(`wrote ${file}`);
}
const packs = join(tmpdir(), `edgelock-docs-packs-${process.pid}`);
const tarballs = await packPublicPackages(packs);
const project = await makeSnippetProject({ tarballs });
try {
  const files = await docFiles();
  const [report, declarations] = await Promise.all([
    checkDocs(files, project),
    checkDeclarations(tarballs),
  ]);
  for (const f of report.failures) console.error(`${f.file}:${f.line}: ${f.message}`);
  for (const f of declarations) console.error(`${f.file}: ${f.message}`);
  const failures = report.failures.length + declarations.length;
  for (const s of report.skipped) console.log(`skipped ${s.file}:${s.line}: ${s.reason}`);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(
    `check:docs: ${files.length} files, ${report.checked} snippets typechecked, ` +
      `${report.verbatim} compared with their file, ${report.skipped.length} skipped, ` +
      `published declarations in 2 user projects: ${failures} failure(s) in ${seconds} s`,
  );
  process.exitCode = failures > 0 ? 1 : 0;
} finally {
  await rm(project, { recursive: true, force: true });
  await rm(packs, { recursive: true, force: true });
}
