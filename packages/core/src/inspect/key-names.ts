import { hashTag, keyBase, unescapeName } from "../keys.ts";
import type { KindInspection } from "./kinds/kind-inspection.ts";
import type { ListEntry } from "./types.ts";

/** A name's key part (`:lock`, `:sem:q`, …) that shows a kind lives there, and that kind. */
interface Suffix {
  readonly suffix: string;
  readonly kind: ListEntry["kind"];
}

/**
 * Recognises the keys of every part's primary state. Suffixes come from `keys.ts` itself (the
 * keys of a sample name, minus its base), so no key layout is written twice. Longest suffix first:
 * `{x}:sem:q` is the semaphore queue of `x`, not a lock queue of `{x}:sem`.
 */
export function keyParser(
  prefix: string,
  parts: readonly KindInspection[],
): (key: string) => ListEntry | null {
  const sample = "x";
  const base = keyBase(prefix, sample);
  const head = base.slice(0, base.length - hashTag(sample).length);
  const suffixes: Suffix[] = parts
    .flatMap((part) => {
      const plan = part.plan(prefix, sample);
      return part.primary.map((i) => ({
        suffix: (plan[i]?.key ?? "").slice(base.length),
        kind: part.kind,
      }));
    })
    .sort((a, b) => b.suffix.length - a.suffix.length);
  return (key) => {
    if (!key.startsWith(head)) return null;
    const rest = key.slice(head.length);
    for (const { suffix, kind } of suffixes) {
      if (!rest.endsWith(suffix)) continue;
      const name = nameOfTag(rest.slice(0, rest.length - suffix.length));
      if (name !== null) return { name, kind };
    }
    return null;
  };
}

/**
 * The name whose keys carry `tagged` (the inverse of `hashTag`, which is injective: `{n}` for a
 * name without braces, `{tag}~escaped` for one with them). Null when no name makes `tagged`.
 */
export function nameOfTag(tagged: string): string | null {
  const close = tagged.indexOf("}");
  if (!tagged.startsWith("{") || close < 0) return null;
  const rest = tagged.slice(close + 1);
  const name =
    rest === ""
      ? tagged.slice(1, close)
      : rest.startsWith("~")
        ? unescapeName(rest.slice(1))
        : null;
  return name !== null && name.length > 0 && hashTag(name) === tagged ? name : null;
}
