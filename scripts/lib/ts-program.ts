import { dirname, join } from "node:path";
import ts from "typescript";
import { REPO_ROOT } from "./workspace.ts";

/** A tsconfig to check, under the name it is reported by. */
export interface Project {
  readonly name: string;
  readonly config: string;
}

export interface CheckResult {
  readonly errors: number;
  readonly output: string;
}

export const formatHost: ts.FormatDiagnosticsHost = {
  getCanonicalFileName: (file) => file,
  getCurrentDirectory: () => REPO_ROOT,
  getNewLine: () => "\n",
};

export function parseConfig(config: string): ts.ParsedCommandLine {
  const errors: ts.Diagnostic[] = [];
  const parsed = ts.getParsedCommandLineOfConfigFile(
    config,
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => errors.push(d) },
  );
  if (parsed === undefined)
    throw new Error(`cannot read ${config}\n${ts.formatDiagnostics(errors, formatHost)}`);
  return parsed;
}

/**
 * Equal keys: the same compiler options and the same files behind the automatic `types`, so a
 * file is checked the same in a program of either project.
 */
export function optionsKey(parsed: ts.ParsedCommandLine): string {
  const options: Record<string, unknown> = { ...parsed.options, noEmit: true };
  for (const local of ["configFile", "configFilePath", "pathsBasePath", "project", "build"])
    delete options[local];
  if (parsed.options.paths !== undefined) options["pathsBasePath"] = parsed.options.pathsBasePath;
  const where = join(dirname(parsed.options.configFilePath as string), "__inferred.ts");
  const types = ts
    .getAutomaticTypeDirectiveNames(parsed.options, ts.sys)
    .map(
      (name) =>
        ts.resolveTypeReferenceDirective(name, where, parsed.options, ts.sys)
          .resolvedTypeReferenceDirective?.resolvedFileName ?? `unresolved:${name}`,
    );
  const sorted = Object.fromEntries(Object.entries(options).sort(([a], [b]) => (a < b ? -1 : 1)));
  return JSON.stringify({ options: sorted, types });
}

/**
 * One program over the files of projects with identical options (the first one's, never
 * emitting). `cache` shares parsed files between programs made with the same options.
 */
export function createProgram(
  projects: readonly Project[],
  cache?: Map<string, ts.SourceFile>,
): ts.Program {
  const parsed = projects.map((p) => parseConfig(p.config));
  const options = { ...parsed[0]!.options, noEmit: true };
  const host = ts.createCompilerHost(options, true);
  if (cache !== undefined) {
    const read = host.getSourceFile.bind(host);
    host.getSourceFile = (fileName, version, onError, create) => {
      const mode = typeof version === "object" ? version : undefined;
      const key = `${fileName}|${mode?.languageVersion ?? version}|${mode?.impliedNodeFormat}`;
      let file = cache.get(key);
      if (file === undefined) {
        file = read(fileName, version, onError, create);
        if (file !== undefined) cache.set(key, file);
      }
      return file;
    };
  }
  return ts.createProgram({
    rootNames: [...new Set(parsed.flatMap((p) => p.fileNames))],
    options,
    host,
    configFileParsingDiagnostics: parsed.flatMap((p) => p.errors),
  });
}

/** What `tsc -p` reports under noEmit (TypeScript's own emitFilesAndReportErrors, in order). */
export function checkProgram(program: ts.Program, pretty: boolean): CheckResult {
  const options = program.getCompilerOptions();
  const diagnostics: ts.Diagnostic[] = [...program.getConfigFileParsingDiagnostics()];
  const configOnly = diagnostics.length;
  diagnostics.push(...program.getSyntacticDiagnostics());
  if (diagnostics.length === configOnly) {
    diagnostics.push(...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics());
    if (diagnostics.length === configOnly) diagnostics.push(...program.getSemanticDiagnostics());
    if ((options.declaration || options.composite) && diagnostics.length === configOnly)
      diagnostics.push(...program.getDeclarationDiagnostics());
  }
  const unique = ts.sortAndDeduplicateDiagnostics(diagnostics);
  const output =
    unique.length === 0
      ? ""
      : pretty
        ? ts.formatDiagnosticsWithColorAndContext(unique, formatHost)
        : ts.formatDiagnostics(unique, formatHost);
  const errors = unique.filter((d) => d.category === ts.DiagnosticCategory.Error).length;
  return { errors, output };
}
