import { InvalidArgumentError } from "@edgelock/core/lock";

/** An integer number of milliseconds ≥ `min`; the message names the argument and the unit. */
export function checkMs(argument: string, value: unknown, min = 1): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < min) {
    throw new InvalidArgumentError(
      argument,
      `must be an integer number of milliseconds ≥ ${min}, got ${String(value)}`,
    );
  }
  return value;
}
