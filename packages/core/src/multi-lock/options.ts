import type { AcquireOptions } from "../lock/types.ts";
import { validateObject, validateOptionalMs, validateSignal } from "../validate.ts";

/** `AcquireOptions` validated and resolved against a default lease (the Lock's rules). */
export interface ResolvedHoldOptions {
  readonly waitMs: number;
  readonly leaseMs: number;
  readonly keepAlive: boolean;
  readonly maxHoldMs: number | undefined;
  readonly signal: AbortSignal | undefined;
}

/** Validates before any request; messages name the argument. `leaseMs` given → fixed, else kept alive. */
export function resolveHoldOptions(options: unknown, defaultLeaseMs: number, defaults: { waitMs: number }): ResolvedHoldOptions {
  const o = validateObject("options", options) as AcquireOptions;
  const waitMs = validateOptionalMs("options.waitMs", o.waitMs) ?? defaults.waitMs;
  const fixed = validateOptionalMs("options.leaseMs", o.leaseMs, { min: 1 });
  const maxHoldMs = validateOptionalMs("options.maxHoldMs", o.maxHoldMs, { min: 1 });
  const signal = validateSignal("options.signal", o.signal);
  const leaseMs = fixed ?? Math.min(defaultLeaseMs, maxHoldMs ?? Infinity);
  return { waitMs, leaseMs, keepAlive: fixed === undefined, maxHoldMs, signal };
}
