import { InvalidArgumentError } from "../errors.ts";
import { checkQuorumFields } from "../serialized-hold/kind-fields.ts";
import { parseHoldFor } from "../serialized-hold/parse-for.ts";
import type { QuorumRef } from "./quorum-ref.ts";
import type { SerializedQuorumLease } from "./types.ts";

/** Checks a serialised quorum lease against the lock it is resumed on, before trusting any of it. */
export function parseQuorumLease(lease: unknown, ref: QuorumRef): SerializedQuorumLease {
  // The fields, as every kind of hold (serialized-hold/parse-for.ts); then: of this lock's databases.
  const want = { kind: "quorum-lock", prefix: "", name: ref.name } as const;
  const parsed = parseHoldFor(lease, "lease", want, checkQuorumFields);
  const { prefixes } = parsed;
  if (prefixes.length !== ref.dbs.length || prefixes.some((p, i) => p !== ref.dbs[i]!.ctx.prefix))
    throw new InvalidArgumentError(
      "lease.prefixes",
      `must be the prefixes of this lock's ${ref.dbs.length} databases, in order`,
    );
  return parsed;
}
