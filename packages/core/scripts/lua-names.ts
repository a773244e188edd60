/**
 * Short names for the locals of the shipped Lua. Every byte of a script is in the bundle of whoever
 * uses it, and its locals (`quarantine_rolled_back`, `deadlines_key`) are most of what `compact`
 * leaves; the .lua files keep the readable names.
 *
 * One map for every script, so a shared piece (`common/*.lua`) reads the same in each. A name is
 * renamed everywhere or nowhere: names Lua or Redis define, and any name used as a table field
 * (`q.key`, `{ key = … }`), keep their spelling, and a new name is never one that appears in any
 * script. As the map is one-to-one and its names are fresh, every name still resolves to the same
 * variable: scopes and shadowing are untouched.
 */

const KEYWORDS = new Set(
  "and break do else elseif end false for function goto if in local nil not or repeat return then true until while".split(
    " ",
  ),
);

/** What Lua and Redis's script environment define: never renamed, never taken as a new name. */
const GLOBALS = new Set(
  "redis KEYS ARGV string table math tonumber tostring type pairs ipairs unpack select error pcall xpcall next cjson cmsgpack bit struct assert rawget rawset rawequal setmetatable getmetatable os _G _VERSION print loadstring coroutine self".split(
    " ",
  ),
);

interface Token {
  readonly kind: "name" | "string" | "number" | "symbol" | "space";
  readonly text: string;
}

/** Lua tokens; the shipped scripts use no long brackets (`[[…]]`) and no comments (compact). */
export function luaTokens(source: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  const take = (kind: Token["kind"], end: number) => {
    out.push({ kind, text: source.slice(i, end) });
    i = end;
  };
  while (i < source.length) {
    const c = source[i]!;
    let j = i + 1;
    if (/\s/.test(c)) {
      while (j < source.length && /\s/.test(source[j]!)) j++;
      take("space", j);
    } else if (c === "'" || c === '"') {
      while (source[j] !== c) {
        if (j >= source.length || source[j] === "\n")
          throw new Error(`unterminated string at ${i}`);
        j += source[j] === "\\" ? 2 : 1;
      }
      take("string", j + 1);
    } else if (c === "[" && (source[j] === "[" || source[j] === "=")) {
      throw new Error(`long brackets are not supported (at ${i})`);
    } else if (c === "-" && source[j] === "-") {
      throw new Error(`comments must be gone before renaming (at ${i})`);
    } else if (/[A-Za-z_]/.test(c)) {
      while (j < source.length && /\w/.test(source[j]!)) j++;
      take("name", j);
    } else if (/\d/.test(c) || (c === "." && /\d/.test(source[j] ?? ""))) {
      while (j < source.length && /[\w.]/.test(source[j]!)) {
        j += /[eEpP]/.test(source[j]!) && /[+-]/.test(source[j + 1] ?? "") ? 2 : 1;
      }
      take("number", j);
    } else {
      const three = source.slice(i, i + 3);
      const two = source.slice(i, i + 2);
      const symbol =
        three === "..."
          ? three
          : ["==", "~=", "<=", ">=", "..", "::", "//"].includes(two)
            ? two
            : c;
      take("symbol", i + symbol.length);
    }
  }
  return out;
}

/** Names that must keep their spelling in `sources`: keywords, globals, and table fields. */
function fixedNames(sources: readonly string[]): Set<string> {
  const fixed = new Set([...KEYWORDS, ...GLOBALS]);
  for (const source of sources) {
    const tokens = luaTokens(source).filter((t) => t.kind !== "space");
    const brackets: string[] = [];
    tokens.forEach((token, k) => {
      if (token.kind === "symbol") {
        if ("{([".includes(token.text)) brackets.push(token.text);
        else if ("})]".includes(token.text)) brackets.pop();
        return;
      }
      if (token.kind !== "name") return;
      const before = tokens[k - 1];
      const after = tokens[k + 1];
      if (before?.kind === "symbol" && (before.text === "." || before.text === ":"))
        fixed.add(token.text);
      if (brackets.at(-1) === "{" && after?.kind === "symbol" && after.text === "=")
        fixed.add(token.text);
    });
  }
  return fixed;
}

const FIRST = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
const NEXT = `${FIRST}0123456789`;

/** The n-th short name: a … Z, then aa, ba, …, with digits after the first letter. */
function shortName(n: number): string {
  let name = FIRST[n % FIRST.length]!;
  for (let rest = Math.floor(n / FIRST.length); rest > 0; rest = Math.floor(rest / NEXT.length)) {
    rest -= 1;
    name += NEXT[rest % NEXT.length]!;
  }
  return name;
}

/**
 * The renaming of every script's locals: the names that save most (uses × length) get the
 * shortest new names; a name no shorter when renamed keeps its own. Deterministic for one set of
 * sources.
 */
export function luaNameMap(sources: readonly string[]): ReadonlyMap<string, string> {
  const fixed = fixedNames(sources);
  const uses = new Map<string, number>();
  for (const source of sources)
    for (const token of luaTokens(source))
      if (token.kind === "name" && !fixed.has(token.text))
        uses.set(token.text, (uses.get(token.text) ?? 0) + 1);
  const ranked = [...uses].sort(
    ([a, n], [b, m]) => m * b.length - n * a.length || (a < b ? -1 : 1),
  );
  const map = new Map<string, string>();
  let next = 0;
  for (const [name] of ranked) {
    let short = shortName(next++);
    while (fixed.has(short) || uses.has(short)) short = shortName(next++);
    map.set(name, short.length < name.length ? short : name);
  }
  return map;
}

/** `source` with its names renamed by `map` (strings and everything else untouched). */
export function renameLua(source: string, map: ReadonlyMap<string, string>): string {
  return luaTokens(source)
    .map((t) => (t.kind === "name" ? (map.get(t.text) ?? t.text) : t.text))
    .join("");
}
