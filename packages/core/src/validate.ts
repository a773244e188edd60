import { InvalidArgumentError } from "./errors.ts";
import { testSeams } from "./test-seams.ts";

/** Longest lock name accepted; keeps keys small and bounded. */
export const MAX_NAME_LENGTH = 512;
// Control characters would make keys unreadable in tools and could forge log lines.
// eslint-disable-next-line no-control-regex
const CONTROL_CHARS = /[\u0000-\u001f\u007f]/;

export function validateName(argument: string, value: unknown): string {
  if (typeof value !== "string" || value.length === 0) {
    throw new InvalidArgumentError(argument, "must be a non-empty string");
  }
  if (value.length > MAX_NAME_LENGTH) {
    throw new InvalidArgumentError(argument, `must be at most ${MAX_NAME_LENGTH} characters`);
  }
  if (CONTROL_CHARS.test(value)) {
    throw new InvalidArgumentError(argument, "must not contain control characters");
  }
  // A lone surrogate becomes U+FFFD on its way to Redis (UTF-8), so "x\uD800", "x\uDFFF" and
  // "x\uFFFD" would share one set of keys: two locks that exclude each other, or one owner id
  // that two holders share.
  if (!isWellFormed(value) && !testSeams.acceptIllFormedNames) {
    throw new InvalidArgumentError(
      argument,
      "must be well-formed Unicode (it contains a lone UTF-16 surrogate)",
    );
  }
  return value;
}

function isWellFormed(value: string): boolean {
  const s = value as string & { isWellFormed?: () => boolean };
  // Node 20 and workerd have it; the regex is for older engines (a `u` regex sees a pair as one).
  return s.isWellFormed ? s.isWellFormed() : !/\p{Cs}/u.test(value);
}

/** A duration in integer milliseconds, within [min, max]. */
export function validateMs(
  argument: string,
  value: unknown,
  { min = 0, max = 2_147_483_647 }: { min?: number; max?: number } = {},
): number {
  if (typeof value !== "number" || !Number.isFinite(value)) {
    throw new InvalidArgumentError(
      argument,
      `must be a finite number of milliseconds, got ${String(value)}`,
    );
  }
  if (!Number.isInteger(value)) {
    throw new InvalidArgumentError(
      argument,
      `must be an integer number of milliseconds, got ${value}`,
    );
  }
  if (value < min || value > max) {
    throw new InvalidArgumentError(argument, `must be between ${min} and ${max} ms, got ${value}`);
  }
  return value;
}

export function validateOptionalMs(
  argument: string,
  value: unknown,
  range?: { min?: number; max?: number },
): number | undefined {
  return value === undefined ? undefined : validateMs(argument, value, range);
}

export function validateInteger(
  argument: string,
  value: unknown,
  min: number,
  max = Number.MAX_SAFE_INTEGER,
): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
    throw new InvalidArgumentError(
      argument,
      `must be an integer between ${min} and ${max}, got ${String(value)}`,
    );
  }
  return value;
}

export function validateSignal(argument: string, value: unknown): AbortSignal | undefined {
  if (value === undefined) return undefined;
  if (
    typeof value !== "object" ||
    value === null ||
    typeof (value as AbortSignal).aborted !== "boolean"
  ) {
    throw new InvalidArgumentError(argument, "must be an AbortSignal");
  }
  return value as AbortSignal;
}

export function validateObject(argument: string, value: unknown): Record<string, unknown> {
  if (value === undefined) return {};
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new InvalidArgumentError(argument, "must be an options object");
  }
  return value as Record<string, unknown>;
}

export function validateFunction(argument: string, value: unknown): void {
  if (typeof value !== "function") throw new InvalidArgumentError(argument, "must be a function");
}
