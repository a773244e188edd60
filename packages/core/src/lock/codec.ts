import type { ReplyOf } from "../engine/manifest.ts";
import type { acquireScript, inspectScript } from "./scripts.generated.ts";
import type { ServerHint } from "../wait/wait-loop.ts";

/**
 * A grant refused by the restart quarantine (status -3 of every granting script): busy until it
 * ends, so waiters wait it out like a held lock, and the reason shows in events.
 */
export function quarantineHint(leftMs: number, position = 0): ServerHint {
  return {
    remainingLeaseMs: Math.max(leftMs, 1),
    position,
    meanHoldMs: 0,
    holdAgeMs: 0,
    reason: "quarantine",
  };
}

export type AcquireReply =
  | {
      readonly status: "granted" | "reentered";
      readonly fence: number;
      readonly count: number;
      readonly pttl: number;
      /** The lease version on the server (0 from scripts that keep none). */
      readonly version: number;
    }
  | { readonly status: "busy"; readonly hint: ServerHint }
  | { readonly status: "abandoned" };

/**
 * What every lock-shaped acquire answers alike (the Lock's, the fair lock's, both read-write
 * sides'): granted (1), reentered (2), refused by the restart quarantine (-3); `undefined` for a
 * busy answer, whose hint each script words its own way.
 */
export function decodeGrant(r: {
  readonly status: number;
  readonly fence: number;
  readonly count: number;
  readonly pttl: number;
  readonly version: number;
}): AcquireReply | undefined {
  if (r.status === 1 || r.status === 2) {
    const status = r.status === 1 ? "granted" : "reentered";
    return { status, fence: r.fence, count: r.count, pttl: r.pttl, version: r.version };
  }
  if (r.status === -3) return { status: "busy", hint: quarantineHint(r.pttl) };
  return undefined;
}

/** The Lock's own acquire reply (by name, through the engine, which took the server time off). */
export function decodeLockAcquire(
  r: ReplyOf<typeof acquireScript>,
  serverMs: number,
): AcquireReply {
  const stats = {
    meanHoldMs: r.meanUseMs,
    holdAgeMs: r.useAgeMs,
    holdDevMs: r.useDevMs,
    meanCycleMs: r.meanCycleMs,
  };
  return decodeGrant(r) ?? busyAnswer(r, serverMs, stats);
}

/**
 * A lock-shaped busy answer: the holder's remaining lease and this waiter's place in the queue,
 * with the hold statistics each script keeps in its own words.
 */
export function busyAnswer(
  r: { readonly pttl: number; readonly position: number },
  serverMs: number,
  stats: Pick<ServerHint, "meanHoldMs" | "holdAgeMs" | "holdDevMs" | "meanCycleMs">,
): AcquireReply {
  const hint = { remainingLeaseMs: Math.max(r.pttl, 0), position: r.position, serverMs, ...stats };
  return { status: "busy", hint };
}

export function lockInfo(r: ReplyOf<typeof inspectScript>): LockInfo {
  return {
    locked: r.locked === 1,
    mine: r.mine,
    pttl: Math.max(r.pttl, 0),
    fence: r.fence,
    waiters: r.waiters,
    count: r.count,
  };
}

export interface LockInfo {
  readonly locked: boolean;
  readonly mine: number;
  readonly pttl: number;
  readonly fence: number;
  readonly waiters: number;
  readonly count: number;
}
