import { existsSync } from "node:fs";
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { ROOT } from "../lib/public-packages.ts";
import { extractBlocks, isChecked, type CodeBlock } from "./extract-snippets.ts";
import { typecheckSnippets, type SnippetFailure } from "./typecheck-snippets.ts";

export interface DocsReport {
  readonly failures: readonly SnippetFailure[];
  readonly checked: number;
  readonly verbatim: number;
  readonly skipped: ReadonlyArray<{
    readonly file: string;
    readonly line: number;
    readonly reason: string;
  }>;
}

/**
 * Checks the code blocks of `files` (paths from `root`): TypeScript/JavaScript blocks typecheck
 * in `projectDir` (see `makeSnippetProject`), `<!-- file: … -->` blocks equal their file.
 */
export async function checkDocs(
  files: readonly string[],
  projectDir: string,
  root: string = ROOT,
): Promise<DocsReport> {
  const failures: SnippetFailure[] = [];
  const toCheck: CodeBlock[] = [];
  const skipped: Array<{ file: string; line: number; reason: string }> = [];
  let verbatim = 0;
  for (const file of files) {
    const { blocks, problems } = extractBlocks(file, await readFile(join(root, file), "utf8"));
    failures.push(...problems);
    for (const block of blocks) {
      if (block.directive.kind === "file") {
        verbatim++;
        const failure = await compareWithFile(root, block, block.directive.path);
        if (failure) failures.push(failure);
      } else if (block.directive.kind === "skip") {
        skipped.push({ file, line: block.line, reason: block.directive.reason });
      } else if (isChecked(block)) {
        toCheck.push(block);
      }
    }
  }
  failures.push(...(await typecheckSnippets(projectDir, toCheck)));
  failures.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line);
  return { failures, checked: toCheck.length, verbatim, skipped };
}

async function compareWithFile(
  root: string,
  block: CodeBlock,
  path: string,
): Promise<SnippetFailure | undefined> {
  const text = await fileBlockText(root, path);
  if (typeof text !== "string") return { file: block.file, line: block.line, message: text.error };
  const want = text.replace(/\n+$/, "");
  const got = block.code.replace(/\n+$/, "");
  if (want === got) return undefined;
  const a = want.split("\n");
  const b = got.split("\n");
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return {
    file: block.file,
    line: block.line + 1 + i,
    message:
      `differs from ${path} (line ${i + 1}): copy the file into the block again ` +
      `(pnpm check:docs --write)\n      file: ${a[i] ?? "(end of file)"}\n      doc:  ${b[i] ?? "(end of block)"}`,
  };
}

/** What a `<!-- file: path[#region] -->` block must contain, or why there is nothing. */
async function fileBlockText(root: string, path: string): Promise<string | { error: string }> {
  const [file, region] = path.split("#") as [string, string | undefined];
  let text: string;
  try {
    text = await readFile(join(root, file), "utf8");
  } catch {
    return { error: `<!-- file: ${path} -->: no such file` };
  }
  if (region === undefined) return text;
  return (
    regionOf(text, region) ?? {
      error: `<!-- file: ${path} -->: no "// #region ${region}" … "// #endregion" in ${file}`,
    }
  );
}

/** Rewrites every `<!-- file: … -->` block of `files` from its file; returns the files changed. */
export async function writeFileBlocks(
  files: readonly string[],
  root: string = ROOT,
): Promise<string[]> {
  const changed: string[] = [];
  for (const file of files) {
    const markdown = await readFile(join(root, file), "utf8");
    const lines = markdown.split("\n");
    const { blocks } = extractBlocks(file, markdown);
    for (const block of [...blocks].reverse()) {
      if (block.directive.kind !== "file") continue;
      const text = await fileBlockText(root, block.directive.path);
      if (typeof text !== "string") continue; // reported by checkDocs
      lines.splice(
        block.line,
        block.endLine - block.line - 1,
        ...text.replace(/\n+$/, "").split("\n"),
      );
    }
    const next = lines.join("\n");
    if (next !== markdown) {
      await writeFile(join(root, file), next);
      changed.push(file);
    }
  }
  return changed;
}

/** The lines between `// #region <name>` and the next `// #endregion`, without them. */
function regionOf(text: string, name: string): string | undefined {
  const lines = text.split("\n");
  const start = lines.findIndex((l) => l.trim() === `// #region ${name}`);
  if (start < 0) return undefined;
  const end = lines.findIndex((l, i) => i > start && l.trim().startsWith("// #endregion"));
  return end < 0 ? undefined : lines.slice(start + 1, end).join("\n");
}

/** The Markdown files whose code blocks are checked: README.md, docs/*.md, every package and example README. */
export async function docFiles(root: string = ROOT): Promise<string[]> {
  const found = ["README.md"];
  const md = (dir: string) =>
    readdir(join(root, dir)).then((names) =>
      names.filter((n) => n.endsWith(".md")).map((n) => `${dir}/${n}`),
    );
  found.push(...(await md("docs")));
  for (const parent of ["packages", "examples"]) {
    for (const entry of await readdir(join(root, parent), { withFileTypes: true })) {
      const readme = `${parent}/${entry.name}/README.md`;
      if (entry.isDirectory() && existsSync(join(root, readme))) found.push(readme);
    }
  }
  return found.sort();
}
