import { InvalidArgumentError } from "../errors.ts";
import { validateName } from "../validate.ts";
import type { LeaseKind, SerializedLease } from "./types.ts";

/** Checks a serialised lease before trusting any of it. */
export function parseLease(
  lease: unknown,
  prefix: string,
  name: string,
  kind: LeaseKind = "lock",
): SerializedLease {
  if (typeof lease !== "object" || lease === null)
    throw new InvalidArgumentError("lease", "must be a serialised lease object");
  const l = lease as Record<string, unknown>;
  if (l["v"] !== 1 || l["kind"] !== kind)
    throw new InvalidArgumentError("lease", `is not a version-1 ${kind} lease`);
  if (l["name"] !== name)
    throw new InvalidArgumentError(
      "lease.name",
      `belongs to "${String(l["name"])}", not "${name}"`,
    );
  if (l["prefix"] !== prefix)
    throw new InvalidArgumentError(
      "lease.prefix",
      `was made under prefix "${String(l["prefix"])}", not "${prefix}"`,
    );
  validateName("lease.owner", l["owner"]);
  for (const field of ["fence", "leaseMs", "expiresAt"] as const) {
    if (typeof l[field] !== "number" || !Number.isFinite(l[field])) {
      throw new InvalidArgumentError(`lease.${field}`, "must be a finite number");
    }
  }
  const version = l["version"];
  if (
    version !== undefined &&
    (typeof version !== "number" || !Number.isSafeInteger(version) || version < 0)
  )
    throw new InvalidArgumentError("lease.version", "must be a non-negative integer");
  return lease as SerializedLease;
}
