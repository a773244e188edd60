import { InvalidArgumentError } from "../errors.ts";
import { validateName } from "../validate.ts";

/** Most names one multi-lock takes: keeps every script's key list and reply small. */
export const MAX_MULTI_LOCK_NAMES = 64;

/**
 * Validates the names of a multi-lock before any request. Names, not Lock handles: a multi-lock
 * is one owner across all its names (a Lock handle would bring an owner of its own); duplicates
 * are dropped, so a list built from data (e.g. the SKUs of an order) may repeat a name.
 */
export function validateMultiLockNames(value: unknown): string[] {
  if (!Array.isArray(value))
    throw new InvalidArgumentError("names", "must be an array of lock names");
  if (value.length === 0) throw new InvalidArgumentError("names", "must name at least one lock");
  const names = value.map((name: unknown, i) => {
    if (
      typeof name === "object" &&
      name !== null &&
      typeof (name as { name?: unknown }).name === "string"
    ) {
      throw new InvalidArgumentError(
        `names[${i}]`,
        "must be a lock name (a string), not a handle: pass lock.name",
      );
    }
    return validateName(`names[${i}]`, name);
  });
  const unique = [...new Set(names)];
  if (unique.length > MAX_MULTI_LOCK_NAMES) {
    throw new InvalidArgumentError(
      "names",
      `must hold at most ${MAX_MULTI_LOCK_NAMES} distinct names, got ${unique.length}`,
    );
  }
  return unique;
}
