import type { ClientContext } from "../client-context.ts";
import { DEFAULT_CLIENT_OPTIONS } from "../client-options.ts";
import { evalScript } from "../engine/eval-script.ts";
import { InvalidArgumentError } from "../errors.ts";
import {
  allSentinelKeys,
  baseOfKey,
  keyBase,
  sentinelKey,
  sentinelKeyFor,
  type QuarantineScope,
} from "../keys.ts";
import { validateMs } from "../validate.ts";
import { initializeScript } from "./scripts.generated.ts";

/** The restart quarantine as a client runs it (see `common/quarantine.lua`). */
export interface QuarantineConfig {
  /** No new grant for this long after a granting script finds its sentinel missing; 0: off. */
  readonly ms: number;
  readonly scope: QuarantineScope;
  readonly sentinelTtlMs: number;
}

/**
 * Longest time a holder may trust a grant without renewing it: the default lease, the claim window
 * of a direct grant, and a fair lock's reservation (a waiter's promise to poll again: the wait
 * strategy's longest sleep plus a request timeout). A waiter entering on a pushed grant trusts it
 * that long.
 */
export interface TrustLimits {
  readonly leaseMs: number;
  readonly claimWindowMs: number;
  readonly returnWithinMs: number;
}

/**
 * Validates the quarantine options against the client's limits: a quarantine shorter than any of
 * them would let a new holder in while a holder from before the loss still trusts its grant.
 */
export function resolveQuarantine(
  o: {
    readonly quarantineMs?: unknown;
    readonly quarantineScope?: unknown;
    readonly sentinelTtlMs?: unknown;
  },
  limits: TrustLimits,
): QuarantineConfig {
  const ms = validateMs(
    "options.quarantineMs",
    o.quarantineMs ?? DEFAULT_CLIENT_OPTIONS.quarantineMs,
  );
  const scope = o.quarantineScope ?? DEFAULT_CLIENT_OPTIONS.quarantineScope;
  if (scope !== "prefix" && scope !== "slot")
    throw new InvalidArgumentError(
      "options.quarantineScope",
      `must be "prefix" or "slot", got ${String(scope)}`,
    );
  const sentinelTtlMs = validateMs(
    "options.sentinelTtlMs",
    o.sentinelTtlMs ?? DEFAULT_CLIENT_OPTIONS.sentinelTtlMs,
    {
      min: ms + 1,
    },
  );
  const floor = Math.max(limits.leaseMs, limits.claimWindowMs, limits.returnWithinMs);
  if (ms > 0 && ms < floor) {
    throw new InvalidArgumentError(
      "options.quarantineMs",
      `must be 0 (off) or at least the default lease, the claim window and the wait strategy's longest sleep plus the request timeout (${floor} ms), got ${ms} ms`,
    );
  }
  return { ms, scope, sentinelTtlMs };
}

/**
 * The sentinel a granting script for `name` takes. With the quarantine off the script never
 * touches it, so the bare key base of the name stands in (in the name's slot; no key of its own).
 */
export function quarantineKey(ctx: ClientContext, name: string): string {
  return ctx.quarantine.ms > 0
    ? sentinelKey(ctx.prefix, name, ctx.quarantine.scope)
    : keyBase(ctx.prefix, name);
}

/** The sentinel for an engine call whose first key is `firstKey` (same rules as `quarantineKey`). */
export function quarantineKeyFor(
  ctx: Pick<ClientContext, "prefix" | "quarantine">,
  firstKey: string,
): string {
  return ctx.quarantine.ms > 0
    ? sentinelKeyFor(ctx.prefix, firstKey, ctx.quarantine.scope)
    : baseOfKey(firstKey);
}

/** The ARGV pair every granting script takes after its own: quarantine ms, sentinel ttl ms. */
export function quarantineArgs(ctx: ClientContext): [number, number] {
  return [ctx.quarantine.ms, ctx.quarantine.sentinelTtlMs];
}

/** With the quarantine on, no lease may outlast it: the guarantee rests on that bound. */
export function checkLeaseWithinQuarantine(
  ctx: ClientContext,
  argument: string,
  leaseMs: number,
): void {
  const q = ctx.quarantine.ms;
  if (q > 0 && leaseMs > q) {
    throw new InvalidArgumentError(
      argument,
      `must be at most the client's quarantineMs (${q} ms) while the restart quarantine is on, got ${leaseMs} ms`,
    );
  }
}

/**
 * Writes every sentinel of the client's scope that is missing, so the first grants of a fresh
 * database are not quarantined. Only for a database no holder has used yet (first deploy): after
 * a data loss it would switch the quarantine's protection off.
 */
export async function initializeSentinels(
  ctx: ClientContext,
): Promise<{ written: number; existing: number }> {
  const keys = allSentinelKeys(ctx.prefix, ctx.quarantine.scope);
  let written = 0;
  let next = 0;
  const worker = async () => {
    while (next < keys.length) {
      const key = keys[next++]!;
      const call = {
        operation: "initialize quarantine sentinel",
        keys: [key],
        args: [ctx.quarantine.sentinelTtlMs],
        retrySafe: true,
      };
      const { reply } = await evalScript(ctx.backend, initializeScript, call, ctx.policy, ctx.emit);
      if (Array.isArray(reply) && Number(reply[0]) === 1) written++;
    }
  };
  // One request per sentinel (each may live on another cluster node), a few at a time.
  await Promise.all(Array.from({ length: Math.min(16, keys.length) }, worker));
  return { written, existing: keys.length - written };
}
