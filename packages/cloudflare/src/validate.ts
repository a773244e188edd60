import { InvalidArgumentError } from "@edgelock/core/lock";

/** An integer number of milliseconds ≥ `min`; the message names the argument and the unit. */
export function checkMs(argument: string, value: unknown, min = 1): number {
  if (
    typeof value !== "number" ||
    !Number.isInteger(value) ||
    value < min ||
    value > 2_147_483_647
  ) {
    throw new InvalidArgumentError(
      argument,
      `must be an integer number of milliseconds ≥ ${min}, got ${String(value)}`,
    );
  }
  return value;
}

export function checkOptionalMs(argument: string, value: unknown, min = 1): number | undefined {
  return value === undefined ? undefined : checkMs(argument, value, min);
}
