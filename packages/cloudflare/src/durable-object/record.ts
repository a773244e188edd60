import type {
  KeepableHold,
  KeeperReason,
  KeeperState,
  KeeperStatus,
} from "@edgelock/core/hand-over";
import { holdSummary } from "./kept-hold.ts";

/** What the object stores about its one lease. All times are wall-clock epoch ms. */
export interface KeptLease {
  /** The hold (any leased kind), updated with the lease version(s) each renewal leaves on the server. */
  lease: KeepableHold;
  /** Lease the keeper renews to. */
  readonly leaseMs: number;
  readonly intervalMs: number;
  readonly maxHoldAt: number;
  /** 0 = no heartbeat required. */
  readonly heartbeatMs: number;
  lastHeartbeatAt: number;
  /** When the next renewal is due. */
  dueAt: number;
  /** Until when the last confirmed renewal holds the lease. */
  expiresAt: number;
  renewals: number;
  state: Exclude<KeeperState, "unknown">;
  reason: KeeperReason | null;
  /** A release is talking to Redis: renewals must not decide anything meanwhile. */
  releasing: boolean;
}

export const RECORD_KEY = "lease";

/** The next moment something is due: a renewal, the heartbeat deadline, or `maxHoldMs`. */
export function nextWake(rec: KeptLease): number {
  const heartbeatDue = rec.heartbeatMs > 0 ? rec.lastHeartbeatAt + rec.heartbeatMs : Infinity;
  return Math.min(rec.dueAt, rec.maxHoldAt, heartbeatDue);
}

export function missedHeartbeat(rec: KeptLease, at: number): boolean {
  return rec.heartbeatMs > 0 && at - rec.lastHeartbeatAt >= rec.heartbeatMs;
}

export function statusOf(rec: KeptLease | undefined, nextAlarmAt?: number | null): KeeperStatus {
  if (!rec) return { state: "unknown", renewals: 0 };
  return {
    state: rec.state,
    ...(rec.reason && { reason: rec.reason }),
    ...holdSummary(rec.lease),
    renewals: rec.renewals,
    expiresAt: rec.expiresAt,
    ...(rec.state === "kept" && typeof nextAlarmAt === "number" && { nextAlarmAt }),
  };
}

export function newRecord(
  lease: KeepableHold,
  o: { leaseMs: number; maxHoldMs: number; heartbeatMs: number },
  at: number,
): KeptLease {
  return {
    lease,
    leaseMs: o.leaseMs,
    intervalMs: Math.max(1, Math.floor(o.leaseMs / 3)),
    maxHoldAt: at + o.maxHoldMs,
    heartbeatMs: o.heartbeatMs,
    lastHeartbeatAt: at,
    dueAt: at, // renew at once: the keeper's longer lease replaces the holder's, and a gone hold shows now
    expiresAt: lease.expiresAt,
    renewals: 0,
    state: "kept",
    reason: null,
    releasing: false,
  };
}
