import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import ts from "typescript";
import type { CodeBlock } from "./extract-snippets.ts";

/** One diagnostic, placed at its line in the Markdown file. */
export interface SnippetFailure {
  readonly file: string;
  readonly line: number;
  readonly message: string;
}

/** Strict settings, as a careful user's project would have them. */
export const SNIPPET_COMPILER_OPTIONS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  moduleDetection: ts.ModuleDetectionKind.Force,
  lib: ["lib.es2023.d.ts", "lib.esnext.disposable.d.ts"],
  types: ["node", "@cloudflare/workers-types"],
  strict: true,
  noUncheckedIndexedAccess: true,
  exactOptionalPropertyTypes: true,
  verbatimModuleSyntax: true,
  isolatedModules: true,
  allowJs: true,
  checkJs: true,
  skipLibCheck: false,
  noEmit: true,
};

const EXTENSION: Record<string, string> = {
  ts: ".ts",
  typescript: ".ts",
  tsx: ".tsx",
  js: ".js",
  javascript: ".js",
  jsx: ".jsx",
};

/**
 * Writes each block as its own module under `projectDir/snippets` and typechecks them all in one
 * program with `projectDir/prelude.d.ts`; `projectDir/node_modules` must hold the packages.
 * Errors in the snippets are reported at their Markdown line; errors in the declaration files of
 * `@edgelock/*` (what a user with `skipLibCheck: false` would see) are reported too.
 */
export async function typecheckSnippets(
  projectDir: string,
  blocks: readonly CodeBlock[],
): Promise<SnippetFailure[]> {
  const dir = join(projectDir, "snippets");
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const origin = new Map<string, CodeBlock>();
  for (const [i, block] of blocks.entries()) {
    const path = join(dir, `s${String(i).padStart(3, "0")}${EXTENSION[block.lang] ?? ".ts"}`);
    await writeFile(path, block.code + "\n");
    origin.set(path, block);
  }
  const rootNames = [join(projectDir, "prelude.d.ts"), ...origin.keys()];
  const host = ts.createCompilerHost(SNIPPET_COMPILER_OPTIONS, true);
  host.getCurrentDirectory = () => projectDir; // `types` and packages resolve from the project
  const program = ts.createProgram({ rootNames, options: SNIPPET_COMPILER_OPTIONS, host });
  const published = program
    .getSourceFiles()
    .filter((f) => /[\\/]node_modules[\\/]@edgelock[\\/].*\.d\.ts$/.test(f.fileName));
  const prelude = program.getSourceFile(rootNames[0]!);
  const diagnostics = [
    ...program.getOptionsDiagnostics(),
    ...program.getGlobalDiagnostics(),
    ...[...origin.keys(), ...(prelude ? [prelude.fileName] : [])].flatMap((name) => {
      const file = program.getSourceFile(name)!;
      return [...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file)];
    }),
    // What a user with `skipLibCheck: false` sees in edgelock's own declaration files.
    ...published.flatMap((file) => program.getSemanticDiagnostics(file)),
  ];
  const failures: SnippetFailure[] = [];
  for (const d of diagnostics) {
    const message = ts.flattenDiagnosticMessageText(d.messageText, "\n");
    const code = `TS${d.code}`;
    if (!d.file) {
      failures.push({ file: "(compiler)", line: 0, message: `${code}: ${message}` });
      continue;
    }
    const block = origin.get(d.file.fileName);
    const { line, character } = d.file.getLineAndCharacterOfPosition(d.start ?? 0);
    if (block) {
      failures.push({
        file: block.file,
        line: block.line + 1 + line,
        message: `${code}: ${message}\n      ${lineOf(block.code, line)}\n      ${" ".repeat(character)}^`,
      });
    } else if (d.file === prelude) {
      failures.push({ file: "(prelude.d.ts)", line: line + 1, message: `${code}: ${message}` });
    } else {
      failures.push({
        file: d.file.fileName.replace(/^.*node_modules[\\/]/, ""),
        line: line + 1,
        message: `${code}: ${message} (in a published declaration file)`,
      });
    }
  }
  return failures;
}

function lineOf(code: string, line: number): string {
  return code.split("\n")[line] ?? "";
}
