import { InvalidArgumentError } from "../errors.ts";

/** Longest `match` pattern accepted. */
export const MAX_GLOB_LENGTH = 512;

/**
 * Redis-style glob (`*`, `?`, `[abc]`, `[^a-c]`, `\x`) as a whole-string RegExp. Names are matched
 * on the client: a name's keys wrap it in a hash tag, so a key pattern could not say it.
 */
export function globToRegExp(argument: string, glob: unknown): RegExp {
  if (typeof glob !== "string" || glob.length === 0 || glob.length > MAX_GLOB_LENGTH) {
    throw new InvalidArgumentError(
      argument,
      `must be a non-empty glob of at most ${MAX_GLOB_LENGTH} characters`,
    );
  }
  let out = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i] ?? "";
    if (c === "*") out += "[\\s\\S]*";
    else if (c === "?") out += "[\\s\\S]";
    else if (c === "\\" && i + 1 < glob.length) out += escape(glob[++i] ?? "");
    else if (c === "[") {
      const close = glob.indexOf("]", i + 2);
      if (close < 0) throw new InvalidArgumentError(argument, `unclosed [ at ${i}`);
      let body = glob.slice(i + 1, close);
      const negate = body.startsWith("^");
      if (negate) body = body.slice(1);
      out += `[${negate ? "^" : ""}${body.replace(/[\\\]]/g, (m) => `\\${m}`)}]`;
      i = close;
    } else out += escape(c);
  }
  return new RegExp(`^${out}$`, "u");
}

function escape(c: string): string {
  return c.replace(/[.*+?^${}()|[\]\\]/g, (m) => `\\${m}`);
}

/** A literal for SCAN's MATCH: the prefix's own glob characters must not act as wildcards. */
export function escapeGlob(literal: string): string {
  return literal.replace(/[*?[\]\\]/g, (m) => `\\${m}`);
}
