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

/** The tuple by the names of the script's reply: the only place positions become names. */
export function named<S extends ManifestScript>(
  script: S,
  what: string,
  tuple: readonly number[],
): ReplyOf<S> {
  if (tuple.length !== script.reply.length)
    throw new BackendError(`${what}: unexpected reply ${JSON.stringify(tuple)}`);
  const out: Record<string, number> = {};
  script.reply.forEach((name, i) => (out[name] = tuple[i]!));
  return out as ReplyOf<S>;
}
