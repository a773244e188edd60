import type { HoldKind, SerializedHold } from "./types.ts";
import { openHold, type FieldCheck } from "./fields.ts";
import {
  checkMultiLockFields,
  checkPermitFields,
  checkQuorumFields,
  checkSemaphoreFields,
} from "./kind-fields.ts";
import { checkLockFields } from "./lock-fields.ts";

const CHECKS: Readonly<Record<HoldKind, FieldCheck>> = {
  lock: checkLockFields,
  "fair-lock": checkLockFields,
  "read-write-lock": checkLockFields,
  "multi-lock": checkMultiLockFields,
  semaphore: checkSemaphoreFields,
  "permit-expirable-semaphore": checkPermitFields,
  "quorum-lock": checkQuorumFields,
};

/**
 * Checks a serialised hold of any kind, field by field, before trusting any of it: a malformed
 * one is an `InvalidArgumentError` naming the field (`hold.fence`, `hold.names[2]`, …, under
 * `argument`). Returns the hold (a copy, with a legacy kind name written the current way).
 * Each handle's `resume()` runs the same checks for its own kind (`parseHoldFor`).
 */
export function parseSerializedHold(value: unknown, argument = "hold"): SerializedHold {
  const { h, kind, field } = openHold(value, argument);
  CHECKS[kind](h, field);
  return h as unknown as SerializedHold;
}
