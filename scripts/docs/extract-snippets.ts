/**
 * Finds the code blocks of a Markdown file and the directive written just before each one.
 *
 * Directives are HTML comments on the line(s) right above the opening fence (blank lines
 * allowed), invisible on GitHub:
 *
 * - `<!-- snippet: skip <reason> -->` — not typechecked; the reason is mandatory.
 * - `<!-- file: <path from the repo root> -->` — the block is that file, verbatim (checked);
 *   `<path>#<name>` is the part between `// #region <name>` and `// #endregion` in that file.
 *   The file itself is compiled and run where it lives (its example, by check:packs).
 */

/** Fence languages that are typechecked. */
export const CHECKED_LANGUAGES = ["ts", "typescript", "tsx", "js", "javascript", "jsx"] as const;

export type Directive =
  | { readonly kind: "none" }
  | { readonly kind: "skip"; readonly reason: string }
  | { readonly kind: "file"; readonly path: string };

export interface CodeBlock {
  /** The Markdown file, as given. */
  readonly file: string;
  /** 1-based line of the opening fence. */
  readonly line: number;
  /** 1-based line of the closing fence. */
  readonly endLine: number;
  /** The fence's language tag ("" when none). */
  readonly lang: string;
  readonly code: string;
  readonly directive: Directive;
}

/** A directive the checker cannot accept (e.g. a skip without a reason). */
export interface DirectiveProblem {
  readonly file: string;
  readonly line: number;
  readonly message: string;
}

const FENCE = /^(\s*)(`{3,}|~{3,})\s*([\w+-]*)/;
const DIRECTIVE = /^\s*<!--\s*(snippet|file)\s*:\s*(.*?)\s*-->\s*$/;

export function extractBlocks(
  file: string,
  markdown: string,
): { blocks: CodeBlock[]; problems: DirectiveProblem[] } {
  const lines = markdown.split(/\r?\n/);
  const blocks: CodeBlock[] = [];
  const problems: DirectiveProblem[] = [];
  let pending: { directive: Directive; line: number } | undefined;
  for (let i = 0; i < lines.length; i++) {
    const text = lines[i]!;
    const directive = DIRECTIVE.exec(text);
    if (directive) {
      const parsed = parseDirective(directive[1]!, directive[2]!);
      if ("message" in parsed) problems.push({ file, line: i + 1, message: parsed.message });
      else pending = { directive: parsed, line: i + 1 };
      continue;
    }
    const fence = FENCE.exec(text);
    if (!fence) {
      if (text.trim() !== "") pending = undefined; // a directive applies to the next block only
      continue;
    }
    const [, indent, marker, lang] = fence;
    const end = findClosingFence(lines, i + 1, marker!);
    const code = lines
      .slice(i + 1, end)
      .map((l) => (l.startsWith(indent!) ? l.slice(indent!.length) : l))
      .join("\n");
    blocks.push({
      file,
      line: i + 1,
      endLine: end + 1,
      lang: lang!.toLowerCase(),
      code,
      directive: pending?.directive ?? { kind: "none" },
    });
    pending = undefined;
    i = end;
  }
  if (pending)
    problems.push({
      file,
      line: pending.line,
      message: "directive is not followed by a code block",
    });
  return { blocks, problems };
}

function findClosingFence(lines: string[], from: number, marker: string): number {
  for (let j = from; j < lines.length; j++) {
    const t = lines[j]!.trim();
    if (t.startsWith(marker[0]!.repeat(marker.length)) && /^[`~]+$/.test(t)) return j;
  }
  return lines.length;
}

function parseDirective(kind: string, rest: string): Directive | { message: string } {
  if (kind === "file") {
    return rest
      ? { kind: "file", path: rest }
      : { message: "<!-- file: … --> needs a path from the repository root" };
  }
  const skip = /^skip\b\s*(.*)$/.exec(rest);
  if (!skip) return { message: `unknown snippet directive "${rest}" (known: skip <reason>)` };
  const reason = skip[1]!.trim();
  return reason
    ? { kind: "skip", reason }
    : { message: "<!-- snippet: skip --> needs a reason: <!-- snippet: skip why -->" };
}

export function isChecked(block: CodeBlock): boolean {
  return (CHECKED_LANGUAGES as readonly string[]).includes(block.lang);
}
