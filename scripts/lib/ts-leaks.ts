// Which projects may share one TypeScript program without changing what either is checked
// against. Projects with identical options see the same files the same way, with one exception:
// a file in the shared program that one project never includes can still reach it through global
// scope — a script file's declarations, `declare global`, `/// <reference lib>`, an ambient
// `declare module "x"` for a module it imports, an augmentation of a module it uses. Two projects
// share a program only when neither would see such a declaration from the other's files.
import { dirname, relative, resolve } from "node:path";
import ts from "typescript";
import type { Project } from "./ts-program.ts";
import { parseConfig } from "./ts-program.ts";
import { REPO_ROOT } from "./workspace.ts";

/** Program methods TypeScript 5.9 has but does not declare publicly (the version is pinned). */
interface ResolvingProgram extends ts.Program {
  forEachResolvedModule(
    callback: (resolution: ts.ResolvedModuleWithFailedLookupLocations, name: string) => void,
    file: ts.SourceFile,
  ): void;
  forEachResolvedTypeReferenceDirective(
    callback: (resolution: ts.ResolvedTypeReferenceDirectiveWithFailedLookupLocations) => void,
    file: ts.SourceFile,
  ): void;
  getAutomaticTypeDirectiveResolutions(): {
    forEach(
      callback: (resolution: ts.ResolvedTypeReferenceDirectiveWithFailedLookupLocations) => void,
    ): void;
  };
}

/** What a file declares beyond its own module. */
interface Effect {
  readonly file: string;
  /** Declarations in global scope that could change another file's check. */
  readonly global: boolean;
  /** `declare module "name"`: ambient in a script file; in a module, an augmentation of `target`. */
  readonly modules: readonly { readonly name: string; readonly target: string | undefined }[];
}

interface Reach {
  readonly files: ReadonlySet<string>;
  /** Every module name the files import (an ambient declaration of one applies to it). */
  readonly names: ReadonlySet<string>;
}

export interface Cluster {
  readonly projects: readonly Project[];
  /** Files in the cluster's program. */
  readonly files: number;
  /** Why a project could not join a cluster it was tried with. */
  readonly notes: readonly string[];
}

/** Projects (of identical options) in as few clusters as keep each one's view of global scope. */
export function clusters(plain: ts.Program, projects: readonly Project[]): Cluster[] {
  const program = resolving(plain);
  const libInterfaces = interfacesOfLibs(program);
  const effects = program
    .getSourceFiles()
    .map((file) => effectOf(program, file, libInterfaces))
    .filter((effect) => effect !== undefined);
  const automatic: string[] = [];
  program.getAutomaticTypeDirectiveResolutions().forEach((resolution) => {
    const file = resolution.resolvedTypeReferenceDirective?.resolvedFileName;
    if (file !== undefined) automatic.push(file);
  });
  const reach = new Map(
    projects.map((p) => [
      p,
      reachable(program, [...parseConfig(p.config).fileNames, ...automatic]),
    ]),
  );
  // What `a` would see from `b`'s files that its own program would not hold.
  const leaks = (a: Reach, b: Reach) =>
    effects.filter(
      (effect) =>
        b.files.has(effect.file) &&
        !a.files.has(effect.file) &&
        (effect.global ||
          effect.modules.some((m) =>
            m.target !== undefined ? a.files.has(m.target) : imports(a.names, m.name),
          )),
    );
  const found: { projects: Project[]; notes: string[]; files: Set<string> }[] = [];
  const bySize = [...projects].sort((a, b) => reach.get(b)!.files.size - reach.get(a)!.files.size);
  for (const project of bySize) {
    const mine = reach.get(project)!;
    const notes: string[] = [];
    const home = found.find((cluster) =>
      cluster.projects.every((other) => {
        const theirs = reach.get(other)!;
        const seen = [...leaks(mine, theirs), ...leaks(theirs, mine)];
        if (seen.length > 0)
          notes.push(`${project.name} apart from ${other.name}: ${describe(seen)}`);
        return seen.length === 0;
      }),
    );
    if (home !== undefined) home.projects.push(project);
    else found.push({ projects: [project], notes, files: new Set() });
    for (const file of mine.files) (home ?? found.at(-1)!).files.add(file);
  }
  return found.map((c) => ({ projects: c.projects, notes: c.notes, files: c.files.size }));
}

function describe(effects: readonly Effect[]): string {
  const names = effects.map((e) => relative(REPO_ROOT, e.file).replace(/^.*node_modules\//, ""));
  return names.slice(0, 2).join(", ") + (names.length > 2 ? `, +${names.length - 2}` : "");
}

function resolving(program: ts.Program): ResolvingProgram {
  const candidate = program as Partial<ResolvingProgram>;
  if (
    typeof candidate.forEachResolvedModule !== "function" ||
    typeof candidate.forEachResolvedTypeReferenceDirective !== "function" ||
    typeof candidate.getAutomaticTypeDirectiveResolutions !== "function"
  )
    throw new Error(
      `TypeScript ${ts.version} lacks the Program methods scripts/lib/ts-leaks.ts uses`,
    );
  return candidate as ResolvingProgram;
}

/**
 * The interfaces the default libraries declare, by qualified name (`URL`, `WebAssembly.Module`),
 * with the text of each of their members.
 */
function interfacesOfLibs(program: ts.Program): Map<string, Set<string>> {
  const interfaces = new Map<string, Set<string>>();
  const walk = (statements: readonly ts.Statement[], prefix: string) => {
    for (const statement of statements) {
      if (ts.isInterfaceDeclaration(statement)) {
        const name = prefix + statement.name.text;
        const members = interfaces.get(name) ?? new Set<string>();
        for (const member of statement.members) members.add(memberText(member));
        interfaces.set(name, members);
      } else if (
        ts.isModuleDeclaration(statement) &&
        ts.isIdentifier(statement.name) &&
        statement.body !== undefined &&
        ts.isModuleBlock(statement.body)
      )
        walk(statement.body.statements, `${prefix}${statement.name.text}.`);
    }
  };
  for (const file of program.getSourceFiles())
    if (program.isSourceFileDefaultLibrary(file)) walk(file.statements, "");
  return interfaces;
}

function memberText(member: ts.TypeElement): string {
  return member.getText().replace(/\s+/g, " ").replace(/[;,]$/, "");
}

/**
 * Whether global declarations change nothing: only interfaces the default libraries declare,
 * re-declared with no heritage, no type parameters, and members the libraries declare word for
 * word, which merge as no-ops. Rollup and esbuild declare empty `AbortSignal`, `URL` and
 * `WebAssembly.Module` so; the core declares `SymbolConstructor.asyncDispose` as the lib does.
 */
function neutral(
  statements: readonly ts.Statement[],
  prefix: string,
  libs: Map<string, Set<string>>,
): boolean {
  return statements.every((statement) => {
    if (ts.isInterfaceDeclaration(statement)) {
      const known = libs.get(prefix + statement.name.text);
      return (
        known !== undefined &&
        statement.heritageClauses === undefined &&
        statement.typeParameters === undefined &&
        statement.members.every((member) => known.has(memberText(member)))
      );
    }
    return (
      ts.isModuleDeclaration(statement) &&
      ts.isIdentifier(statement.name) &&
      statement.body !== undefined &&
      ts.isModuleBlock(statement.body) &&
      neutral(statement.body.statements, `${prefix}${statement.name.text}.`, libs)
    );
  });
}

function effectOf(
  program: ResolvingProgram,
  file: ts.SourceFile,
  libs: Map<string, Set<string>>,
): Effect | undefined {
  if (file.fileName.endsWith(".json") || program.isSourceFileDefaultLibrary(file)) return undefined;
  const script = !ts.isExternalModule(file);
  let global = file.libReferenceDirectives.length > 0;
  const names: string[] = [];
  const scriptGlobals: ts.Statement[] = [];
  for (const statement of file.statements) {
    if (ts.isModuleDeclaration(statement) && ts.isStringLiteral(statement.name))
      names.push(statement.name.text);
    else if (
      ts.isModuleDeclaration(statement) &&
      statement.flags & ts.NodeFlags.GlobalAugmentation &&
      statement.body !== undefined &&
      ts.isModuleBlock(statement.body)
    )
      global ||= !neutral(statement.body.statements, "", libs);
    else if (script) scriptGlobals.push(statement);
  }
  global ||= scriptGlobals.length > 0 && !neutral(scriptGlobals, "", libs);
  if (!global && names.length === 0) return undefined;
  const targets = new Map<string, string | undefined>();
  if (!script)
    program.forEachResolvedModule(
      (r, name) => targets.set(name, r.resolvedModule?.resolvedFileName),
      file,
    );
  return {
    file: file.fileName,
    global,
    modules: names.map((name) => ({ name, target: targets.get(name) })),
  };
}

/** Whether a module name (or an ambient pattern such as `*.css`) is among those imported. */
function imports(names: ReadonlySet<string>, declared: string): boolean {
  if (!declared.includes("*")) return names.has(declared);
  const [head, tail] = declared.split("*", 2) as [string, string];
  for (const name of names) if (name.startsWith(head) && name.endsWith(tail)) return true;
  return false;
}

/**
 * The files a set of root files brings into a program (imports, type references,
 * `/// <reference path>`), and every module name they import.
 */
function reachable(program: ResolvingProgram, roots: readonly string[]): Reach {
  const files = new Set<string>();
  const names = new Set<string>();
  const pending = [...roots];
  const visit = (name: string | undefined) => {
    const file = name === undefined ? undefined : program.getSourceFile(name);
    if (file !== undefined && !files.has(file.fileName)) pending.push(file.fileName);
  };
  for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
    const file = program.getSourceFile(name);
    if (file === undefined || files.has(file.fileName)) continue;
    files.add(file.fileName);
    program.forEachResolvedModule((r, requested) => {
      names.add(requested);
      visit(r.resolvedModule?.resolvedFileName);
    }, file);
    program.forEachResolvedTypeReferenceDirective(
      (r) => visit(r.resolvedTypeReferenceDirective?.resolvedFileName),
      file,
    );
    for (const ref of file.referencedFiles) visit(resolve(dirname(file.fileName), ref.fileName));
  }
  return { files, names };
}
