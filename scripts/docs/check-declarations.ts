import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ts from "typescript";
import { ROOT, run, type Tarballs } from "../lib/public-packages.ts";
import type { SnippetFailure } from "./typecheck-snippets.ts";

/** The packages a Worker or a Vercel function imports, and what they need installed beside them. */
const EDGE_PACKAGES = [
  "@edgelock/core",
  "@edgelock/cloudflare",
  "@edgelock/vercel",
  "@edgelock/hono",
];
const BESIDE: ReadonlyArray<readonly [name: string, from: string]> = [
  ["hono", "packages/hono"], // @edgelock/hono's peer
  ["@vercel/functions", "packages/vercel"], // @edgelock/vercel's dependency
  ["@cloudflare/workers-types", "packages/cloudflare"],
  ["@types/node", "."],
];

/** Two user projects: a Worker as create-cloudflare makes it, and a Node project. */
const CONSUMERS: ReadonlyArray<{ name: string; options: ts.CompilerOptions }> = [
  {
    name: 'a Worker made by create-cloudflare (lib ["es2024"], workers-types)',
    options: { lib: ["lib.es2024.d.ts"], types: ["@cloudflare/workers-types"] },
  },
  {
    name: 'a Node project (lib ["es2022"], @types/node)',
    options: { lib: ["lib.es2022.d.ts"], types: ["node"] },
  },
];

/**
 * The published declarations, as a user's project sees them with `skipLibCheck: false`: every
 * edge package imported in a project that has neither `@upstash/redis` nor `redis` installed and
 * no `esnext.disposable` lib. (The snippets need neither; the declarations must not either.)
 */
export async function checkDeclarations(tarballs: Tarballs): Promise<SnippetFailure[]> {
  const dir = await mkdtemp(join(tmpdir(), "edgelock-decl-"));
  try {
    const modules = join(dir, "node_modules");
    for (const name of EDGE_PACKAGES) {
      const into = join(modules, name);
      await mkdir(into, { recursive: true });
      await run("tar", ["xzf", tarballs.get(name)!, "-C", into, "--strip-components=1"]);
    }
    for (const [name, from] of BESIDE) {
      await mkdir(join(modules, name, ".."), { recursive: true });
      await symlink(
        await realpath(join(ROOT, from, "node_modules", name)),
        join(modules, name),
        "dir",
      );
    }
    const entry = join(dir, "uses-edgelock.ts");
    await writeFile(
      entry,
      EDGE_PACKAGES.map((p, i) => `import type * as p${i} from "${p}";\n`).join("") +
        `export type All = [${EDGE_PACKAGES.map((_, i) => `typeof p${i}`).join(", ")}];\n`,
    );
    const failures: SnippetFailure[] = [];
    for (const consumer of CONSUMERS) {
      const options: ts.CompilerOptions = {
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.ESNext,
        moduleResolution: ts.ModuleResolutionKind.Bundler,
        strict: true,
        skipLibCheck: false,
        noEmit: true,
        ...consumer.options,
      };
      const host = ts.createCompilerHost(options, true);
      host.getCurrentDirectory = () => dir;
      const program = ts.createProgram({ rootNames: [entry], options, host });
      for (const d of ts.getPreEmitDiagnostics(program)) {
        const where = d.file
          ? `${d.file.fileName.replace(/^.*node_modules[\\/]/, "")}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}`
          : "(compiler)";
        failures.push({
          file: `published declarations in ${consumer.name}`,
          line: 0,
          message: `${where}: TS${d.code}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`,
        });
      }
    }
    return failures;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
