import { InvalidArgumentError } from "../errors.ts";
import { PRIMITIVE_KINDS } from "../kinds.ts";
import { MAX_MULTI_LOCK_NAMES } from "../multi-lock/names.ts";
import { validateName } from "../validate.ts";
import type { HoldKind } from "./types.ts";

/** A serialised hold's fields, before they are checked. */
export type Fields = Readonly<Record<string, unknown>>;

/** Checks one kind's fields; `field(name)` names one under the caller's argument (`hold.fence`). */
export type FieldCheck = (h: Fields, field: (name: string) => string) => void;

/** Every kind that has holds: all but the latch, which nobody holds. */
export const HOLD_KINDS: readonly HoldKind[] = PRIMITIVE_KINDS.filter(
  (k): k is HoldKind => k !== "count-down-latch",
);

/**
 * Kind names that version-1 holds were serialised with before the one vocabulary: such a hold
 * (in a job queue, a keeper's storage) still resumes, as the kind it was.
 */
const LEGACY_KINDS: Readonly<Record<string, Fields>> = {
  "read-lock": { kind: "read-write-lock", side: "read" },
  "write-lock": { kind: "read-write-lock", side: "write" },
  permit: { kind: "permit-expirable-semaphore" },
};

/** A hold's kind and read-write side, a legacy kind name read the current way. */
export function currentKind(hold: { kind?: unknown; side?: unknown }): {
  kind: string;
  side?: unknown;
} {
  const legacy = LEGACY_KINDS[String(hold.kind)];
  return legacy
    ? { kind: String(legacy["kind"]), ...("side" in legacy ? { side: legacy["side"] } : {}) }
    : { kind: String(hold.kind), side: hold.side };
}

/**
 * What every serialised hold has: an object, `v: 1`, a known `kind` (a legacy kind name written
 * the current way, in a copy). The kind's own fields are not checked yet.
 */
export function openHold(value: unknown, argument: string) {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new InvalidArgumentError(argument, "must be a serialised hold (what toJSON() returned)");
  const field = (name: string) => `${argument}.${name}`;
  const given = value as Fields;
  if (given["v"] !== 1)
    throw new InvalidArgumentError(field("v"), `must be 1 (this version), got ${show(given["v"])}`);
  const h: Fields = { ...given, ...LEGACY_KINDS[String(given["kind"])] };
  const kind = h["kind"] as HoldKind;
  if (!HOLD_KINDS.includes(kind))
    throw new InvalidArgumentError(
      field("kind"),
      `must be one of ${HOLD_KINDS.join(", ")}, got ${show(given["kind"])}`,
    );
  return { h, kind, field };
}

export function integer(argument: string, value: unknown, min: number): void {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < min)
    throw new InvalidArgumentError(argument, `must be an integer of at least ${min}`);
}

export function integers(argument: string, value: unknown, length: number): void {
  if (!Array.isArray(value) || value.length !== length)
    throw new InvalidArgumentError(
      argument,
      `must be an array of ${length} integers, one per name`,
    );
  value.forEach((v, i) => integer(`${argument}[${i}]`, v, 0));
}

export function nameArray(argument: string, value: unknown): string[] {
  if (!Array.isArray(value) || value.length === 0)
    throw new InvalidArgumentError(argument, "must be a non-empty array of strings");
  if (value.length > MAX_MULTI_LOCK_NAMES)
    throw new InvalidArgumentError(argument, `must hold at most ${MAX_MULTI_LOCK_NAMES} entries`);
  return value.map((v: unknown, i) => validateName(`${argument}[${i}]`, v));
}

/** What a leased hold carries about its lease: fence, leaseMs, expiresAt and the version. */
export const checkLeaseTerms: FieldCheck = (h, field) => {
  integer(field("fence"), h["fence"], 0);
  checkExpiry(h, field);
};

/** leaseMs, expiresAt and (when present) the lease version. */
export const checkExpiry: FieldCheck = (h, field) => {
  integer(field("leaseMs"), h["leaseMs"], 1);
  if (typeof h["expiresAt"] !== "number" || !Number.isFinite(h["expiresAt"]))
    throw new InvalidArgumentError(field("expiresAt"), "must be a finite number (epoch ms)");
  if (h["version"] !== undefined) integer(field("version"), h["version"], 0);
};

function show(value: unknown): string {
  return typeof value === "string" ? `"${value}"` : String(value);
}
