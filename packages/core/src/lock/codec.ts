import { decodeTuple } from "../engine/decode.ts";
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
 * The acquire tuple: {status, fence, count, pttl, position, mean use, use age, server ms} and,
 * from the Lock's own script, two more slots: the use deviation and the mean hand-off cycle
 * (lock-shaped primitives whose scripts answer eight slots share this decoder).
 */
export function decodeAcquire(reply: unknown): AcquireReply {
  const length = Array.isArray(reply) && reply.length === 10 ? 10 : 8;
  const t = decodeTuple("acquire", reply, length) as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number?,
    number?,
  ];
  const [
    status,
    fence,
    count,
    pttl,
    position,
    meanHoldMs,
    holdAgeMs,
    serverMs,
    holdDevMs,
    meanCycleMs,
  ] = t;
  if (status === 1 || status === 2)
    return { status: status === 1 ? "granted" : "reentered", fence, count, pttl, version: 0 };
  if (status === -1) return { status: "abandoned" };
  if (status === -3) return { status: "busy", hint: quarantineHint(pttl) };
  const hint = { remainingLeaseMs: Math.max(pttl, 0), position, meanHoldMs, holdAgeMs, serverMs };
  return {
    status: "busy",
    hint:
      holdDevMs === undefined || meanCycleMs === undefined
        ? hint
        : { ...hint, holdDevMs, meanCycleMs },
  };
}

/** The Lock's own acquire reply (by name, through the engine, which took the server time off). */
export function decodeLockAcquire(
  r: ReplyOf<typeof acquireScript>,
  serverMs: number,
): AcquireReply {
  if (r.status === 1 || r.status === 2) {
    const status = r.status === 1 ? "granted" : "reentered";
    return { status, fence: r.fence, count: r.count, pttl: r.pttl, version: r.version };
  }
  if (r.status === -3) return { status: "busy", hint: quarantineHint(r.pttl) };
  return {
    status: "busy",
    hint: {
      remainingLeaseMs: Math.max(r.pttl, 0),
      position: r.position,
      meanHoldMs: r.meanUseMs,
      holdAgeMs: r.useAgeMs,
      serverMs,
      holdDevMs: r.useDevMs,
      meanCycleMs: r.meanCycleMs,
    },
  };
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

export function decodeRelease(reply: unknown): { released: boolean; remaining: number } {
  const [status, remaining] = decodeTuple("release", reply, 2) as [number, number];
  return { released: status === 1, remaining };
}

export function decodeExtend(reply: unknown): { renewed: boolean } {
  const [status] = decodeTuple("extend", reply, 2) as [number, number];
  return { renewed: status === 1 };
}

export interface LockInfo {
  readonly locked: boolean;
  readonly mine: number;
  readonly pttl: number;
  readonly fence: number;
  readonly waiters: number;
  readonly count: number;
}

export function decodeInspect(reply: unknown): LockInfo {
  const [locked, mine, pttl, fence, waiters, count] = decodeTuple("inspect", reply, 6) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  return { locked: locked === 1, mine, pttl: Math.max(pttl, 0), fence, waiters, count };
}
