import { InvalidArgumentError } from "../errors.ts";
import { validateName } from "../validate.ts";
import type { SerializedMultiLease } from "./types.ts";

/** Checks a serialised multi-lock lease before trusting any of it. */
export function parseMultiLease(
  lease: unknown,
  prefix: string,
  names: readonly string[],
): SerializedMultiLease {
  if (typeof lease !== "object" || lease === null)
    throw new InvalidArgumentError("lease", "must be a serialised lease object");
  const l = lease as Record<string, unknown>;
  if (l["v"] !== 1 || l["kind"] !== "multi-lock")
    throw new InvalidArgumentError("lease", "is not a version-1 multi-lock lease");
  if (l["prefix"] !== prefix)
    throw new InvalidArgumentError(
      "lease.prefix",
      `was made under prefix "${String(l["prefix"])}", not "${prefix}"`,
    );
  const given = l["names"];
  if (
    !Array.isArray(given) ||
    given.length !== names.length ||
    given.some((n, i) => n !== names[i])
  ) {
    throw new InvalidArgumentError(
      "lease.names",
      `belongs to other names than this multi-lock's [${names.join(", ")}]`,
    );
  }
  const fences = l["fences"];
  if (
    !Array.isArray(fences) ||
    fences.length !== names.length ||
    fences.some((f) => typeof f !== "number" || !Number.isFinite(f))
  ) {
    throw new InvalidArgumentError("lease.fences", "must be one finite number per name");
  }
  validateName("lease.owner", l["owner"]);
  for (const field of ["leaseMs", "expiresAt"] as const) {
    if (typeof l[field] !== "number" || !Number.isFinite(l[field]))
      throw new InvalidArgumentError(`lease.${field}`, "must be a finite number");
  }
  return lease as SerializedMultiLease;
}
