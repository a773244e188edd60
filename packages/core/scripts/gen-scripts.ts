/**
 * Turns every `src/**\/*.lua` into a typed constant with its SHA1, one `scripts.generated.ts`
 * per folder. `-- @include path.lua` lines are replaced by that file (relative to the script), so
 * primitives share Lua (server time, fencing, operation records) without copy-paste.
 *
 * A script whose header declares its slots (`-- @key name …`, `-- @arg name …`, `-- @reply a b …`)
 * gets a manifest, so a call whose keys or args do not match is a compile error, and is wrapped
 * so that its reply ends with the server time. `-- @protocol` marks a mutating script: it is
 * wrapped in the operation protocol (common/protocol-*.lua), whose slots the engine appends.
 * `--check` fails when a generated file is stale (run in the tests).
 */
import { createHash } from "node:crypto";
import { readFileSync, readdirSync, writeFileSync, existsSync, statSync } from "node:fs";
import { dirname, join, resolve, basename } from "node:path";

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

let stale = 0;
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
  for (const file of files.sort()) {
    const manifest = manifestOf(readFileSync(file, "utf8"));
    const expanded = expand(file);
    const source = compact(manifest ? wrap(expanded, manifest) : expanded);
    const sha = createHash("sha1").update(source).digest("hex");
    const id = camel(basename(file, ".lua"));
    // Widened to string under a manifest, so compile errors show the slots, not the source.
    const widen = manifest ? " as string" : "";
    const head = [
      `  name: ${JSON.stringify(basename(file, ".lua"))},`,
      `  sha: "${sha}"${widen},`,
      `  source: ${JSON.stringify(source)}${widen},`,
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
  const target = join(dir, "scripts.generated.ts");
  const text = out.join("\n");
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
