import { InvalidArgumentError } from "../errors.ts";
import { checkMultiLockFields } from "../serialized-hold/kind-fields.ts";
import { parseHoldFor } from "../serialized-hold/parse-for.ts";
import type { SerializedMultiLease } from "./types.ts";

/** Checks a serialised multi-lock lease (serialized-hold/parse-for.ts) and that it holds these names. */
export function parseMultiLease(
  lease: unknown,
  prefix: string,
  names: readonly string[],
): SerializedMultiLease {
  const parsed = parseHoldFor(lease, "lease", { kind: "multi-lock", prefix }, checkMultiLockFields);
  if (parsed.names.length !== names.length || parsed.names.some((n, i) => n !== names[i]))
    throw new InvalidArgumentError(
      "lease.names",
      `belongs to other names than this multi-lock's [${names.join(", ")}]`,
    );
  return parsed;
}
