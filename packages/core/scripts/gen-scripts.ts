/**
 * Turns every `src/**\/*.lua` into a typed constant with its SHA1, one `scripts.generated.ts`
 * per folder. `-- @include path.lua` lines are replaced by that file (relative to the script), so
 * primitives share Lua (server time, fencing, operation records) without copy-paste.
 *
 * What ships is `compact`, with its locals renamed short (`lua-names.ts`: one map for every
 * script, written to `lua-names.generated.ts` for the tools that weaken shipped scripts by text).
 *
 * A script whose header declares its slots (`-- @key name …`, `-- @arg name …`, `-- @reply a b …`)
 * gets a manifest, so a call whose keys or args do not match is a compile error, and is wrapped
 * so that its reply ends with the server time. `-- @protocol` marks a mutating script: it is
 * wrapped in the operation protocol (common/protocol-*.lua), whose slots the engine appends.
 * `--check` fails when a generated file is stale (run in the tests).
 */
import { createHash } from "node:crypto";
import { readFileSync, readdirSync, writeFileSync, existsSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, basename } from "node:path";
import { luaNameMap, renameLua } from "./lua-names.ts";

const root = resolve(import.meta.dirname, "../src");
const check = process.argv.includes("--check");

export function expand(file: string, seen: string[] = []): string {
  if (seen.includes(file)) throw new Error(`include cycle: ${[...seen, file].join(" -> ")}`);
  return readFileSync(file, "utf8")
    .split("\n")
    .map((line) => {
      const m = /^--\s*@include\s+(\S+)\s*$/.exec(line);
      return m ? expand(resolve(dirname(file), m[1]!), [...seen, file]).trimEnd() : line;
    })
    .join("\n");
}

/**
 * What ships: the script without comments, indentation and blank lines (the .lua file keeps
 * them for readers). Every byte of a script's source is in the bundle of whoever uses it — it is
 * sent on the NOSCRIPT fallback — and the SHA1 is of this compact form.
 */
export function compact(source: string): string {
  const lines = source.split("\n").map((line) => withoutComment(line).trim());
  return `${lines.filter((line) => line.length > 0).join("\n")}\n`;
}

/** `compact` of a piece of a script: its kept lines, each ending in a newline ("" when none). */
function compactPiece(source: string): string {
  return source
    .split("\n")
    .map((line) => withoutComment(line).trim())
    .filter((line) => line.length > 0)
    .map((line) => `${line}\n`)
    .join("");
}

/**
 * A script as pieces: its own lines, and the shared Lua it includes (a file under `src/`, by
 * path), which the generated code takes from `common/parts.generated.ts` instead of repeating it
 * in every script's string. Joined, the pieces are exactly `compact` of the whole script, so
 * the SHA1 and what Redis runs do not change; a bundle holds each shared piece once.
 */
type Piece = { readonly text: string } | { readonly part: string };

function piecesOf(file: string): Piece[] {
  const pieces: Piece[] = [];
  let text: string[] = [];
  const flush = () => {
    if (text.length > 0) pieces.push({ text: text.join("\n") });
    text = [];
  };
  for (const line of readFileSync(file, "utf8").split("\n")) {
    const m = /^--\s*@include\s+(\S+)\s*$/.exec(line);
    if (!m) {
      text.push(line);
      continue;
    }
    flush();
    pieces.push({ part: resolve(dirname(file), m[1]!) });
  }
  flush();
  return pieces;
}

/** The body's pieces inside the common prologue and epilogue (see `wrap`). */
function wrappedPieces(file: string, manifest: Manifest): Piece[] {
  const kind = manifest.protocol ? "protocol" : "reply";
  return [
    { part: join(root, "common", `${kind}-prologue.lua`) },
    { text: "local __answer = (function()" },
    ...piecesOf(file),
    { text: "end)()" },
    { part: join(root, "common", `${kind}-epilogue.lua`) },
  ];
}

/** `common/fence.lua` → `luaCommonFence`; `lock/_grant-head.lua` → `luaLockGrantHead`. */
function partName(path: string): string {
  const rel = path.slice(root.length + 1).replace(/\.lua$/, "");
  return `lua${rel
    .split(/[/_-]+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join("")}`;
}

/** The line up to a `--` that is not inside a string literal (no script uses long brackets). */
function withoutComment(line: string): string {
  let quote: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote !== undefined) {
      if (c === "\\") i++;
      else if (c === quote) quote = undefined;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === "-" && line[i + 1] === "-") return line.slice(0, i);
  }
  return line;
}

export interface Manifest {
  readonly protocol: boolean;
  readonly keys: string[];
  readonly args: string[];
  readonly reply: string[];
}

/** The slots a script's header declares, or undefined for a script without a manifest. */
export function manifestOf(text: string): Manifest | undefined {
  const keys: string[] = [];
  const args: string[] = [];
  let reply: string[] | undefined;
  let protocol = false;
  for (const line of text.split("\n")) {
    const m = /^--\s*@(key|arg|reply|protocol)\b\s*(.*)$/.exec(line);
    if (!m) continue;
    const words = m[2]!.split(/\s+/).filter(Boolean);
    if (m[1] === "protocol") protocol = true;
    else if (m[1] === "reply") reply = words;
    else (m[1] === "key" ? keys : args).push(ident(words[0], line));
  }
  if (reply === undefined) {
    if (keys.length || args.length || protocol) throw new Error("a manifest needs an @reply line");
    return undefined;
  }
  reply.forEach((name) => ident(name, "@reply"));
  for (const [kind, names] of [
    ["@key", keys],
    ["@arg", args],
    ["@reply", reply],
  ] as const)
    if (names.slice(0, -1).some((name) => name.endsWith("...")))
      throw new Error(`only the last ${kind} slot may be a list (name...)`);
  return { protocol, keys, args, reply };
}

/** A slot name; `name...` is a list slot (any number of values), allowed last of its kind. */
function ident(name: string | undefined, where: string): string {
  if (name === undefined || !/^[a-z][A-Za-z0-9]*(\.\.\.)?$/.test(name))
    throw new Error(`bad slot name in ${JSON.stringify(where)}`);
  return name;
}

/** The body inside the common prologue and epilogue: protocol scripts, or reply-time only. */
function wrap(body: string, manifest: Manifest): string {
  const part = (name: string) => expand(join(root, "common", `${name}.lua`)).trimEnd();
  const kind = manifest.protocol ? "protocol" : "reply";
  return [
    part(`${kind}-prologue`),
    "local __answer = (function()",
    body.trimEnd(),
    "end)()",
    part(`${kind}-epilogue`),
    "",
  ].join("\n");
}

function camel(name: string): string {
  return name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

const byDir = new Map<string, string[]>();
for (const file of walk(root).filter(
  (f) => f.endsWith(".lua") && !basename(f).startsWith("_") && !f.includes(`${root}/common/`),
)) {
  byDir.set(dirname(file), [...(byDir.get(dirname(file)) ?? []), file]);
}

/** A script's readable compact source (before renaming): what its pieces join into. */
function readableSource(file: string): string {
  const manifest = manifestOf(readFileSync(file, "utf8"));
  const expanded = expand(file);
  return compact(manifest ? wrap(expanded, manifest) : expanded);
}

const names = luaNameMap([...byDir.values()].flat().sort().map(readableSource));
const ship = (lua: string) => renameLua(lua, names);

let stale = 0;
/** Shared Lua pieces, by file: their compact text, emitted once in `common/parts.generated.ts`. */
const parts = new Map<string, string>();
const partsFile = join(root, "common", "parts.generated.ts");

/** The TypeScript expression of a script's source: its pieces joined, shared ones by name. */
function sourceExpression(pieces: Piece[], whole: string, from: string): [string, Set<string>] {
  const used = new Set<string>();
  const terms: string[] = [];
  let joined = "";
  let literal = "";
  const flush = () => {
    if (literal !== "") terms.push(JSON.stringify(literal));
    literal = "";
  };
  for (const piece of pieces) {
    if ("text" in piece) {
      const text = ship(compactPiece(piece.text));
      literal += text;
      joined += text;
      continue;
    }
    const text = ship(compactPiece(expand(piece.part)));
    if (text === "") continue;
    flush();
    parts.set(piece.part, text);
    used.add(partName(piece.part));
    terms.push(partName(piece.part));
    joined += text;
  }
  flush();
  if (joined !== whole) throw new Error(`pieces of ${from} do not join into its compact source`);
  return [terms.join(" + "), used];
}

for (const [dir, files] of byDir) {
  const manifests = files.map((file) => manifestOf(readFileSync(file, "utf8")));
  const out = [
    "// Generated by scripts/gen-scripts.ts from the .lua files beside it. Do not edit.",
    ...(manifests.some((m) => m === undefined)
      ? ['import type { Script } from "../engine/script.ts";']
      : []),
    ...(manifests.some((m) => m !== undefined)
      ? ['import type { ManifestScript } from "../engine/manifest.ts";']
      : []),
    "",
  ];
  const imported = new Set<string>();
  for (const file of files.sort()) {
    const manifest = manifestOf(readFileSync(file, "utf8"));
    const source = ship(readableSource(file));
    const sha = createHash("sha1").update(source).digest("hex");
    const [expression, used] = sourceExpression(
      manifest ? wrappedPieces(file, manifest) : piecesOf(file),
      source,
      file,
    );
    used.forEach((name) => imported.add(name));
    const id = camel(basename(file, ".lua"));
    // Widened to string under a manifest, so compile errors show the slots, not the source.
    const widen = manifest ? " as string" : "";
    const head = [
      `  name: ${JSON.stringify(basename(file, ".lua"))},`,
      `  sha: "${sha}"${widen},`,
      `  source: ${widen ? `(${expression})${widen}` : expression},`,
    ];
    if (manifest === undefined) {
      out.push(`export const ${id}Script: Script = {`, ...head, "};", "");
      continue;
    }
    const list = (names: string[]) => `[${names.map((n) => JSON.stringify(n)).join(", ")}]`;
    out.push(
      `export const ${id}Script = {`,
      ...head,
      `  protocol: ${manifest.protocol},`,
      `  keys: ${list(manifest.keys)},`,
      `  args: ${list(manifest.args)},`,
      `  reply: ${list(manifest.reply)},`,
      "} as const satisfies ManifestScript;",
      "",
    );
  }
  if (imported.size > 0) {
    const from = relative(dir, partsFile).replace(/^(?!\.)/, "./");
    out.splice(1, 0, `import { ${[...imported].sort().join(", ")} } from "${from}";`);
  }
  emit(join(dir, "scripts.generated.ts"), out.join("\n"));
}

const partLines = [
  "// Generated by scripts/gen-scripts.ts: the Lua that scripts share (includes, prologues,",
  "// epilogues), compact, once; each script's source joins them with its own lines. Do not edit.",
  "",
  ...[...parts]
    .map(([path, text]) => [partName(path), text] as const)
    .sort((a, b) => a[0].localeCompare(b[0]))
    .flatMap(([name, text]) => [`export const ${name} = ${JSON.stringify(text)};`, ""]),
];
emit(partsFile, partLines.join("\n"));

// Not under src/: no bundle holds it. The campaign's Lua mutations and the scripts test read it.
const renamed = [...names].filter(([from, to]) => from !== to).sort(([a], [b]) => (a < b ? -1 : 1));
emit(
  resolve(import.meta.dirname, "lua-names.generated.ts"),
  [
    "// Generated by scripts/gen-scripts.ts: how the shipped Lua renames each local (readable ->",
    "// shipped). Do not edit.",
    "",
    "export const LUA_NAMES: Readonly<Record<string, string>> = {",
    ...renamed.map(([from, to]) => `  ${from}: ${JSON.stringify(to)},`),
    "};",
    "",
  ].join("\n"),
);

function emit(target: string, text: string): void {
  if (check) {
    if (!existsSync(target) || readFileSync(target, "utf8") !== text) {
      console.error(`stale: ${target} (run pnpm gen:scripts)`);
      stale++;
    }
  } else {
    writeFileSync(target, text);
    console.log(`wrote ${target}`);
  }
}
process.exit(stale ? 1 : 0);
