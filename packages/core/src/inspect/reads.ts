import { BackendError } from "../errors.ts";

/**
 * How `describe.lua` reads one key. `of` is the index (within the same part's plan) of an earlier
 * zset read whose members are looked up here: a queue's deadlines, a reader's count and fence.
 */
export type ReadOp =
  | { readonly type: "hash" }
  | { readonly type: "string" }
  | { readonly type: "zset"; readonly live: boolean }
  | { readonly type: "scores"; readonly of: number }
  | { readonly type: "fields"; readonly of: number; readonly prefixes: readonly string[] };

export interface ReadSpec {
  readonly key: string;
  readonly op: ReadOp;
}

/** PTTL: -2 the key is absent, -1 it has no expiry. */
export interface HashRead {
  readonly pttl: number;
  readonly size: number;
  readonly fields: ReadonlyMap<string, string>;
}
export interface StringRead {
  readonly pttl: number;
  readonly value: string | null;
}
export interface ZsetRead {
  readonly pttl: number;
  readonly card: number;
  /** Members whose score is at least the server time (ms). */
  readonly live: number;
  readonly entries: readonly { readonly member: string; readonly score: number }[];
}
export interface ScoresRead {
  readonly pttl: number;
  readonly scores: readonly (number | null)[];
}
export interface FieldsRead {
  readonly pttl: number;
  /** Per member of the source read, one value per prefix. */
  readonly values: readonly (readonly (string | null)[])[];
}

/** The ARGV word of one read; `offset` shifts `of` when several parts share one script call. */
export function encodeOp(op: ReadOp, offset: number): string {
  switch (op.type) {
    case "hash":
      return "h";
    case "string":
      return "s";
    case "zset":
      return op.live ? "zl" : "z";
    case "scores":
      return `zs:${op.of + offset + 1}`;
    case "fields":
      return `hf:${op.of + offset + 1}:${op.prefixes.join(",")}`;
  }
}

/** Typed access to one part's slice of the script's reply; a wrong shape is a protocol fault. */
export class Reads {
  readonly #raw: readonly unknown[];
  readonly #plan: readonly ReadSpec[];
  /** Server time (ms) when the snapshot was read. */
  readonly now: number;

  constructor(raw: readonly unknown[], plan: readonly ReadSpec[], now: number) {
    this.#raw = raw;
    this.#plan = plan;
    this.now = now;
  }

  /** Whether key `i` exists (any read type). */
  exists(i: number): boolean {
    const raw = this.#raw[i];
    return Array.isArray(raw) && num(raw[0]) !== -2;
  }

  hash(i: number): HashRead {
    const [pttl, size, flat] = this.#tuple(i, "hash", 3);
    const list = strings(flat);
    const fields = new Map<string, string>();
    for (let k = 0; k + 1 < list.length; k += 2) fields.set(list[k] ?? "", list[k + 1] ?? "");
    return { pttl: num(pttl), size: num(size), fields };
  }

  string(i: number): StringRead {
    const [pttl, value] = this.#tuple(i, "string", 2);
    return { pttl: num(pttl), value: value === null || value === false ? null : String(value) };
  }

  zset(i: number): ZsetRead {
    const [pttl, card, live, flat] = this.#tuple(i, "zset", 4);
    const list = strings(flat);
    const entries: { member: string; score: number }[] = [];
    for (let k = 0; k + 1 < list.length; k += 2)
      entries.push({ member: list[k] ?? "", score: num(list[k + 1]) });
    return { pttl: num(pttl), card: num(card), live: num(live), entries };
  }

  scores(i: number): ScoresRead {
    const [pttl, , , list] = this.#tuple(i, "scores", 4);
    return {
      pttl: num(pttl),
      scores: array(list).map((s) => (s === null || s === false ? null : num(s))),
    };
  }

  fields(i: number): FieldsRead {
    const spec = this.#plan[i]?.op;
    const width = spec?.type === "fields" ? spec.prefixes.length : 1;
    const [pttl, , list] = this.#tuple(i, "fields", 3);
    const flat = array(list).map((v) => (v === null || v === false ? null : String(v)));
    const values: (string | null)[][] = [];
    for (let k = 0; k < flat.length; k += width) values.push(flat.slice(k, k + width));
    return { pttl: num(pttl), values };
  }

  #tuple(i: number, type: ReadOp["type"], length: number): unknown[] {
    const spec = this.#plan[i];
    const raw = this.#raw[i];
    if (spec?.op.type !== type || !Array.isArray(raw) || raw.length !== length) {
      throw new BackendError(
        `describe: unexpected reply for read ${i} (${type}): ${JSON.stringify(raw)}`,
      );
    }
    return raw;
  }
}

function array(value: unknown): unknown[] {
  if (!Array.isArray(value))
    throw new BackendError(`describe: expected a list, got ${JSON.stringify(value)}`);
  return value;
}

function strings(value: unknown): string[] {
  return array(value).map(String);
}

/** Integers come back as numbers (REST, RESP) or, from WITHSCORES and HGETALL, as strings. */
export function num(value: unknown): number {
  const n = typeof value === "string" ? Number(value) : value;
  if (typeof n !== "number" || !Number.isFinite(n))
    throw new BackendError(`describe: expected a number, got ${JSON.stringify(value)}`);
  return n;
}
