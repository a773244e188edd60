import { InvalidArgumentError } from "../errors.ts";
import { parseHoldFor } from "../serialized-hold/parse.ts";
import type { QuorumRef } from "./quorum-ref.ts";
import type { SerializedQuorumLease } from "./types.ts";

/** Checks a serialised quorum lease against the lock it is resumed on, before trusting any of it. */
export function parseQuorumLease(lease: unknown, ref: QuorumRef): SerializedQuorumLease {
  // The fields, as every kind of hold (serialized-hold/parse.ts); then: of this lock's databases.
  const parsed = parseHoldFor(lease, "lease", { kind: "quorum-lock", prefix: "", name: ref.name });
  const { prefixes } = parsed;
  if (prefixes.length !== ref.dbs.length || prefixes.some((p, i) => p !== ref.dbs[i]!.ctx.prefix))
    throw new InvalidArgumentError(
      "lease.prefixes",
      `must be the prefixes of this lock's ${ref.dbs.length} databases, in order`,
    );
  return parsed;
}
