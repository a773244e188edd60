import { InvalidArgumentError } from "../errors.ts";
import { openHold, type FieldCheck } from "./fields.ts";
import type { HoldKind, SerializedHold } from "./types.ts";

/** What a handle's `resume()` checks beyond the fields: the hold is of this handle. */
export interface HoldExpectation {
  readonly kind: HoldKind;
  readonly side?: "read" | "write";
  readonly prefix: string;
  /** Absent for kinds that carry names of their own (a multi-lock checks its names itself). */
  readonly name?: string;
}

/**
 * A handle's `resume()`: checks `value` as `parseSerializedHold` does, with the field check of
 * the handle's own kind only (`check`, so a Lock-only bundle carries no other kind's), and that
 * it belongs to this handle (kind, side, prefix, name), so a hold never resumes on another
 * lock's keys.
 */
export function parseHoldFor<K extends HoldKind>(
  value: unknown,
  argument: string,
  want: HoldExpectation & { readonly kind: K },
  check: FieldCheck,
): Extract<SerializedHold, { kind: K }> {
  const { h, kind, field } = openHold(value, argument);
  if (kind === want.kind) check(h, field);
  const what = want.side === undefined ? want.kind : `${want.kind} (${want.side} side)`;
  const side = kind === "read-write-lock" ? ` (${String(h["side"])} side)` : "";
  if (kind !== want.kind || (want.side !== undefined && h["side"] !== want.side))
    throw new InvalidArgumentError(
      field("kind"),
      `is a ${kind}${side} hold, not a ${what} hold: resume it on its own kind of handle, or with client.resumeHold()`,
    );
  if (want.name !== undefined && "name" in h && h["name"] !== want.name)
    throw new InvalidArgumentError(
      field("name"),
      `belongs to "${String(h["name"])}", not "${want.name}"`,
    );
  if ("prefix" in h && h["prefix"] !== want.prefix)
    throw new InvalidArgumentError(
      field("prefix"),
      `was made under prefix "${String(h["prefix"])}", not "${want.prefix}"`,
    );
  return h as unknown as Extract<SerializedHold, { kind: K }>;
}
