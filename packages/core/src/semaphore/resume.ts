import { InvalidArgumentError } from "../errors.ts";
import { validateInteger, validateName, validateObject } from "../validate.ts";
import { MAX_PERMITS } from "./acquire.ts";
import type { SerializedSemaphoreHold } from "./types.ts";

/** Checks a serialised semaphore hold before trusting any of it. */
export function parseHold(hold: unknown, prefix: string, name: string): SerializedSemaphoreHold {
  const h = validateObject("hold", hold) as Partial<SerializedSemaphoreHold>;
  if (h.v !== 1 || h.kind !== "semaphore") {
    throw new InvalidArgumentError("hold", "is not a version-1 semaphore hold");
  }
  if (h.name !== name) {
    throw new InvalidArgumentError("hold.name", `belongs to "${String(h.name)}", not "${name}"`);
  }
  if (h.prefix !== prefix) {
    throw new InvalidArgumentError("hold.prefix", `was made under prefix "${String(h.prefix)}"`);
  }
  validateInteger("hold.permits", h.permits, 1, MAX_PERMITS);
  validateName("hold.releaseOp", h.releaseOp);
  if (h.releaseAnchor !== undefined) validateInteger("hold.releaseAnchor", h.releaseAnchor, 0);
  return hold as SerializedSemaphoreHold;
}
