import { InvalidArgumentError } from "../errors.ts";
import { validateName } from "../validate.ts";
import type { SerializedPermit } from "./types.ts";

/** Checks a serialised permit before trusting any of it. */
export function parsePermit(permit: unknown, prefix: string, name: string): SerializedPermit {
  if (typeof permit !== "object" || permit === null)
    throw new InvalidArgumentError("permit", "must be a serialised permit object");
  const p = permit as Record<string, unknown>;
  if (p["v"] !== 1 || p["kind"] !== "permit")
    throw new InvalidArgumentError("permit", "is not a version-1 permit");
  if (p["name"] !== name)
    throw new InvalidArgumentError(
      "permit.name",
      `belongs to "${String(p["name"])}", not "${name}"`,
    );
  if (p["prefix"] !== prefix)
    throw new InvalidArgumentError(
      "permit.prefix",
      `was made under prefix "${String(p["prefix"])}", not "${prefix}"`,
    );
  validateName("permit.id", p["id"]);
  for (const field of ["fence", "leaseMs", "expiresAt"] as const) {
    if (typeof p[field] !== "number" || !Number.isFinite(p[field]))
      throw new InvalidArgumentError(`permit.${field}`, "must be a finite number");
  }
  return permit as SerializedPermit;
}
