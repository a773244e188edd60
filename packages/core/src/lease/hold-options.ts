import type { ClientContext } from "../client-context.ts";
import type { AcquireOptions } from "../lock/types.ts";
import { checkLeaseWithinQuarantine } from "../quarantine/quarantine.ts";
import { validateObject, validateOptionalMs, validateSignal } from "../validate.ts";

/**
 * `AcquireOptions` validated and resolved against a default lease: the same rules for every
 * leased hold (Lock and its lock-shaped kin, MultiLock, QuorumLock, a permit).
 */
export interface ResolvedHoldOptions {
  readonly waitMs: number;
  readonly leaseMs: number;
  readonly keepAlive: boolean;
  readonly maxHoldMs: number | undefined;
  readonly signal: AbortSignal | undefined;
}

/**
 * Validates before any request; messages name the argument. `leaseMs` given → fixed, else the
 * client's default lease, kept alive; never longer than the client's restart quarantine.
 */
export function resolveHoldOptions(
  options: unknown,
  ctx: ClientContext,
  defaults: { waitMs: number },
): ResolvedHoldOptions {
  const o = validateObject("options", options) as AcquireOptions;
  const waitMs = validateOptionalMs("options.waitMs", o.waitMs) ?? defaults.waitMs;
  const fixed = validateOptionalMs("options.leaseMs", o.leaseMs, { min: 1 });
  const maxHoldMs = validateOptionalMs("options.maxHoldMs", o.maxHoldMs, { min: 1 });
  const signal = validateSignal("options.signal", o.signal);
  if (fixed !== undefined) checkLeaseWithinQuarantine(ctx, "options.leaseMs", fixed);
  const leaseMs = fixed ?? Math.min(ctx.leaseMs, maxHoldMs ?? Infinity);
  return { waitMs, leaseMs, keepAlive: fixed === undefined, maxHoldMs, signal };
}
