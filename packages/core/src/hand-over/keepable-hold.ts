import { InvalidArgumentError } from "../errors.ts";
import { currentKind } from "../serialized-hold/fields.ts";
import type { SerializedLease } from "../lock/types.ts";
import type { SerializedMultiLease } from "../multi-lock/types.ts";
import type { SerializedPermit } from "../permit-semaphore/types.ts";

/**
 * The serialised holds the Durable Object keeper can keep: every kind with a lease that one
 * database's client renews and releases through `client.resumeHold()`.
 */
export type KeepableHold = SerializedLease | SerializedMultiLease | SerializedPermit;

export type KeepableKind = KeepableHold["kind"];

export const KEEPABLE_KINDS: readonly KeepableKind[] = Object.freeze([
  "lock",
  "fair-lock",
  "read-write-lock",
  "multi-lock",
  "permit-expirable-semaphore",
]);

// Why each serialised kind the keeper cannot keep is refused: said at the door, never "kept".
const REFUSED: Readonly<Record<string, string>> = {
  "quorum-lock":
    "is a quorum-lock hold: it spans several databases and the keeper has one database's client, so it cannot keep it; keep it alive where its quorumLock(clients, name) lives (a waitUntil keeper without handoff, or timerKeeper)",
  semaphore:
    "is a semaphore hold: it has no lease to renew (its permits stay taken until released), so there is nothing to keep; release it with client.resumeHold(hold).release(), or use a PermitExpirableSemaphore for leased permits",
  "count-down-latch": "is a count-down latch: it has no hold and no lease to keep",
};

/** A hold's kind and read-write side, legacy kind names read the current way (as `resumeHold`). */
export const kindOf = currentKind;

/**
 * What the keeper needs of a hold before trusting it with the hold's identity (the object's
 * name): an object of version 1, of a keepable kind, with its identity fields. A quorum-lock,
 * a semaphore hold or any other kind is refused with an `InvalidArgumentError` naming
 * `{argument}.kind` and saying why. The object checks every field again (`parseSerializedHold`).
 */
export function checkKeepable(argument: string, value: unknown): asserts value is KeepableHold {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new InvalidArgumentError(argument, "must be a serialised hold (held.toJSON())");
  const h = value as Record<string, unknown>;
  if (h["v"] !== 1)
    throw new InvalidArgumentError(
      `${argument}.v`,
      `must be 1 (this version), got ${show(h["v"])}`,
    );
  const { kind } = kindOf(h);
  if (!KEEPABLE_KINDS.includes(kind as KeepableKind))
    throw new InvalidArgumentError(
      `${argument}.kind`,
      REFUSED[kind] ??
        `must be a leased kind the keeper keeps (${KEEPABLE_KINDS.join(", ")}), got ${show(h["kind"])}`,
    );
  const text = (field: string) => {
    if (typeof h[field] !== "string" || h[field] === "")
      throw new InvalidArgumentError(`${argument}.${field}`, "must be a non-empty string");
  };
  text("prefix");
  if (kind === "multi-lock") {
    for (const field of ["names", "fences"])
      if (!Array.isArray(h[field]))
        throw new InvalidArgumentError(`${argument}.${field}`, "must be an array, one per name");
  } else {
    text("name");
    if (typeof h["fence"] !== "number")
      throw new InvalidArgumentError(`${argument}.fence`, "must be a number");
  }
  text(kind === "permit-expirable-semaphore" ? "id" : "owner");
}

function show(value: unknown): string {
  return typeof value === "string" ? `"${value}"` : String(value);
}
