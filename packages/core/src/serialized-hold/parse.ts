import { InvalidArgumentError } from "../errors.ts";
import { MAX_MULTI_LOCK_NAMES } from "../multi-lock/names.ts";
import { MAX_PERMITS } from "../semaphore/limits.ts";
import { validateInteger, validateName } from "../validate.ts";
import type { HoldKind, SerializedHold } from "./types.ts";

const KINDS: readonly HoldKind[] = [
  "lock",
  "fair-lock",
  "read-write-lock",
  "multi-lock",
  "semaphore",
  "permit-expirable-semaphore",
  "quorum-lock",
];

/**
 * Kind names that version-1 holds were serialised with before the one vocabulary: such a hold
 * (in a job queue, a keeper's storage) still resumes, as the kind it was.
 */
const LEGACY_KINDS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  "read-lock": { kind: "read-write-lock", side: "read" },
  "write-lock": { kind: "read-write-lock", side: "write" },
  permit: { kind: "permit-expirable-semaphore" },
};

type Fields = Record<string, unknown>;

/**
 * Checks a serialised hold of any kind, field by field, before trusting any of it: a malformed
 * one is an `InvalidArgumentError` naming the field (`hold.fence`, `hold.names[2]`, …, under
 * `argument`). Returns the hold (a copy, with a legacy kind name written the current way).
 */
export function parseSerializedHold(value: unknown, argument = "hold"): SerializedHold {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new InvalidArgumentError(argument, "must be a serialised hold (what toJSON() returned)");
  const field = (name: string) => `${argument}.${name}`;
  const given = value as Fields;
  if (given["v"] !== 1)
    throw new InvalidArgumentError(field("v"), `must be 1 (this version), got ${show(given["v"])}`);
  const h: Fields = { ...given, ...LEGACY_KINDS[String(given["kind"])] };
  const kind = h["kind"] as HoldKind;
  if (!KINDS.includes(kind))
    throw new InvalidArgumentError(
      field("kind"),
      `must be one of ${KINDS.join(", ")}, got ${show(given["kind"])}`,
    );
  if (kind === "quorum-lock") {
    nameArray(field("prefixes"), h["prefixes"]);
  } else validateName(field("prefix"), h["prefix"]);
  if (kind === "multi-lock") {
    const names = nameArray(field("names"), h["names"]);
    integers(field("fences"), h["fences"], names.length);
    if (h["versions"] !== undefined) integers(field("versions"), h["versions"], names.length);
  } else {
    validateName(field("name"), h["name"]);
  }
  if (kind === "semaphore") {
    validateInteger(field("permits"), h["permits"], 1, MAX_PERMITS);
    validateName(field("releaseOp"), h["releaseOp"]);
    return h as unknown as SerializedHold;
  }
  if (kind === "permit-expirable-semaphore") validateName(field("id"), h["id"]);
  else if (kind === "quorum-lock") validateName(field("token"), h["token"]);
  else validateName(field("owner"), h["owner"]);
  if (kind === "read-write-lock" && h["side"] !== "read" && h["side"] !== "write")
    throw new InvalidArgumentError(field("side"), `must be "read" or "write"`);
  if (kind !== "multi-lock") integer(field("fence"), h["fence"], 0);
  integer(field("leaseMs"), h["leaseMs"], 1);
  if (typeof h["expiresAt"] !== "number" || !Number.isFinite(h["expiresAt"]))
    throw new InvalidArgumentError(field("expiresAt"), "must be a finite number (epoch ms)");
  if (h["version"] !== undefined) integer(field("version"), h["version"], 0);
  return h as unknown as SerializedHold;
}

/** What a handle's `resume()` checks beyond the fields: the hold is of this handle. */
export interface HoldExpectation {
  readonly kind: HoldKind;
  readonly side?: "read" | "write";
  readonly prefix: string;
  /** Absent for kinds that carry names of their own (a multi-lock checks its names itself). */
  readonly name?: string;
}

/**
 * Parses `value` and checks it belongs to the handle it is resumed on (kind, side, prefix, name),
 * so a hold never resumes on another lock's keys.
 */
export function parseHoldFor<K extends HoldKind>(
  value: unknown,
  argument: string,
  want: HoldExpectation & { readonly kind: K },
): Extract<SerializedHold, { kind: K }> {
  const h = parseSerializedHold(value, argument);
  const what = want.side === undefined ? want.kind : `${want.kind} (${want.side} side)`;
  if (h.kind !== want.kind || (want.side !== undefined && "side" in h && h.side !== want.side))
    throw new InvalidArgumentError(
      `${argument}.kind`,
      `is a ${h.kind}${"side" in h ? ` (${h.side} side)` : ""} hold, not a ${what} hold: resume it on its own kind of handle, or with client.resumeHold()`,
    );
  if (want.name !== undefined && "name" in h && h.name !== want.name)
    throw new InvalidArgumentError(
      `${argument}.name`,
      `belongs to "${h.name}", not "${want.name}"`,
    );
  if ("prefix" in h && h.prefix !== want.prefix)
    throw new InvalidArgumentError(
      `${argument}.prefix`,
      `was made under prefix "${h.prefix}", not "${want.prefix}"`,
    );
  return h as Extract<SerializedHold, { kind: K }>;
}

function integer(argument: string, value: unknown, min: number): void {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < min)
    throw new InvalidArgumentError(argument, `must be an integer of at least ${min}`);
}

function integers(argument: string, value: unknown, length: number): void {
  if (!Array.isArray(value) || value.length !== length)
    throw new InvalidArgumentError(
      argument,
      `must be an array of ${length} integers, one per name`,
    );
  value.forEach((v, i) => integer(`${argument}[${i}]`, v, 0));
}

function nameArray(argument: string, value: unknown): string[] {
  if (!Array.isArray(value) || value.length === 0)
    throw new InvalidArgumentError(argument, "must be a non-empty array of strings");
  if (value.length > MAX_MULTI_LOCK_NAMES)
    throw new InvalidArgumentError(argument, `must hold at most ${MAX_MULTI_LOCK_NAMES} entries`);
  return value.map((v: unknown, i) => validateName(`${argument}[${i}]`, v));
}

function show(value: unknown): string {
  return typeof value === "string" ? `"${value}"` : String(value);
}
