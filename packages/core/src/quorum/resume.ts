import { InvalidArgumentError } from "../errors.ts";
import { validateName } from "../validate.ts";
import type { QuorumRef } from "./quorum-ref.ts";
import type { SerializedQuorumLease } from "./types.ts";

/** Checks a serialised quorum lease against the lock it is resumed on, before trusting any of it. */
export function parseQuorumLease(lease: unknown, ref: QuorumRef): SerializedQuorumLease {
  if (typeof lease !== "object" || lease === null)
    throw new InvalidArgumentError("lease", "must be a serialised lease object");
  const l = lease as Record<string, unknown>;
  if (l["v"] !== 1 || l["kind"] !== "quorum-lock")
    throw new InvalidArgumentError("lease", "is not a version-1 quorum-lock lease");
  if (l["name"] !== ref.name)
    throw new InvalidArgumentError(
      "lease.name",
      `belongs to "${String(l["name"])}", not "${ref.name}"`,
    );
  const prefixes = l["prefixes"];
  if (
    !Array.isArray(prefixes) ||
    prefixes.length !== ref.dbs.length ||
    prefixes.some((p, i) => p !== ref.dbs[i]!.ctx.prefix)
  ) {
    throw new InvalidArgumentError(
      "lease.prefixes",
      `must be the prefixes of this lock's ${ref.dbs.length} databases, in order`,
    );
  }
  validateName("lease.token", l["token"]);
  for (const field of ["fence", "leaseMs", "expiresAt"] as const) {
    if (typeof l[field] !== "number" || !Number.isFinite(l[field]))
      throw new InvalidArgumentError(`lease.${field}`, "must be a finite number");
  }
  return lease as SerializedQuorumLease;
}
