import { BackendError } from "../errors.ts";
import { decodeTuple } from "./decode.ts";
import type { ManifestScript, ReplyOf } from "./manifest.ts";

/** A manifest script's raw reply: its integers, then the server time. */
export function splitReply(what: string, raw: unknown): { tuple: number[]; serverMs: number } {
  const length = Array.isArray(raw) ? raw.length : 0;
  if (length < 2) throw new BackendError(`${what}: unexpected reply ${JSON.stringify(raw)}`);
  const all = decodeTuple(what, raw, length);
  return { tuple: all.slice(0, -1), serverMs: all[length - 1]! };
}

/**
 * A protocol script's raw reply: its integers, the grant epoch the run left and the smaller one it
 * found (-1 each when it did not read the quarantine's sentinel), then the server time.
 */
export function splitProtocolReply(
  what: string,
  raw: unknown,
): { tuple: number[]; epochLeft: number; epochFoundLower: number; serverMs: number } {
  const length = Array.isArray(raw) ? raw.length : 0;
  if (length < 4) throw new BackendError(`${what}: unexpected reply ${JSON.stringify(raw)}`);
  const all = decodeTuple(what, raw, length);
  return {
    tuple: all.slice(0, -3),
    epochLeft: all[length - 3]!,
    epochFoundLower: all[length - 2]!,
    serverMs: all[length - 1]!,
  };
}

/** The tuple by the names of the script's reply: the only place positions become names. */
export function named<S extends ManifestScript>(
  script: S,
  what: string,
  tuple: readonly number[],
): ReplyOf<S> {
  const names = script.reply;
  const list = names.at(-1)?.endsWith("...") === true;
  const fixed = list ? names.length - 1 : names.length;
  if (list ? tuple.length < fixed : tuple.length !== fixed)
    throw new BackendError(`${what}: unexpected reply ${JSON.stringify(tuple)}`);
  const out: Record<string, number | number[]> = {};
  names.slice(0, fixed).forEach((name, i) => (out[name] = tuple[i]!));
  if (list) out[names.at(-1)!.slice(0, -3)] = tuple.slice(fixed);
  return out as ReplyOf<S>;
}
