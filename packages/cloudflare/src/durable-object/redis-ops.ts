import {
  createClient,
  DEFAULT_CLIENT_OPTIONS,
  type Keeper,
  type LockErrorCode,
} from "@edgelock/core";
import type { KeepableHold } from "@edgelock/core/hand-over";
import type { KeptLease } from "./record.ts";

export type RenewOutcome =
  | {
      readonly kind: "renewed";
      readonly expiresAt: number;
      /** The hold as the renewal left it (its lease version(s)): the next renewal carries them. */
      readonly hold?: KeepableHold | undefined;
    }
  | { readonly kind: "gone" }
  | { readonly kind: "failed"; readonly error: unknown };

export type ReleaseOutcome = "released" | "not-held" | "unknown";

// Resumed leases are never kept alive by the core: the object's alarm is the keeper.
const NO_KEEPER: Keeper = Object.freeze({ keep: () => undefined });

/**
 * The object's only two Redis operations, for every leased kind, through the core's one path for
 * resumed holds (`client.resumeHold`: the kind's own scripts check owner, fence and version).
 */
export function redisOps(redis: { url: string; token: string }) {
  const view = (rec: KeptLease) => {
    // One request must not outlast a third of the lease: a slow try must leave room for another.
    const third = Math.max(1, Math.floor(rec.leaseMs / 3));
    const client = createClient({
      redis,
      prefix: rec.lease.prefix,
      keeper: NO_KEEPER,
      requestTimeoutMs: Math.min(DEFAULT_CLIENT_OPTIONS.requestTimeoutMs, third),
      retryWindowMs: Math.min(DEFAULT_CLIENT_OPTIONS.retryWindowMs, third),
    });
    // A resumed view is provisional (its renewals and release reach the server whatever its
    // local deadline); the object tracks the real deadline itself.
    return client.resumeHold({ ...rec.lease, expiresAt: Date.now() + rec.leaseMs });
  };
  return {
    async renew(rec: KeptLease, leaseMs: number): Promise<RenewOutcome> {
      const sentAt = Date.now();
      try {
        const held = view(rec);
        await held.extend(leaseMs);
        return { kind: "renewed", expiresAt: sentAt + leaseMs, hold: held.toJSON() };
      } catch (error) {
        return codeOf(error) === "NOT_HELD" ? { kind: "gone" } : { kind: "failed", error };
      }
    },
    async release(rec: KeptLease): Promise<ReleaseOutcome> {
      try {
        await view(rec).release();
        return "released";
      } catch (error) {
        return codeOf(error) === "NOT_HELD" ? "not-held" : "unknown";
      }
    },
  };
}

export type RedisOps = ReturnType<typeof redisOps>;

/**
 * Why `client.resumeHold` would refuse this hold (another prefix, a multi-lock's names out of
 * their order, …), named under `lease` as the request names it; `undefined` when it resumes.
 * Sends nothing: a hold the keeper could never renew is refused at the hand-over, never "kept".
 */
export function whyNotResumable(
  redis: { url: string; token: string },
  hold: KeepableHold,
): string | undefined {
  try {
    // expiresAt 0: the view believes no lease, so it arms no deadline timer that would outlive it.
    const client = createClient({ redis, prefix: hold.prefix, keeper: NO_KEEPER });
    client.resumeHold({ ...hold, expiresAt: 0 });
    return undefined;
  } catch (error) {
    // Only what is wrong with the hold is the caller's (400); anything else (the object's own
    // Redis settings) is thrown on, as the object's fault.
    const e = error as { code?: unknown; argument?: unknown; message?: unknown };
    const given =
      e?.code === "INVALID_ARGUMENT" && typeof e.argument === "string" ? e.argument : "";
    const argument =
      given === "options.prefix" ? "lease.prefix" : given.replace(/^hold(?=\.|$)/, "lease");
    if (!argument.startsWith("lease")) throw error;
    return `${argument}${String(e.message).slice(given.length)}`;
  }
}

function codeOf(error: unknown): LockErrorCode | undefined {
  return (error as { code?: LockErrorCode } | null)?.code;
}
