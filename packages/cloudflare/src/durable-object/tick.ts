import { sameHold } from "@edgelock/core/hand-over";
import { adoptVersions } from "./kept-hold.ts";
import { DEFAULT_LEASE_KEEPER } from "./defaults.ts";
import { missedHeartbeat, nextWake, type KeptLease } from "./record.ts";
import type { RedisOps } from "./redis-ops.ts";
import type { LeaseStore } from "./store.ts";

/**
 * What an alarm does. Alarms are at-least-once and may come late or twice, so every decision is
 * taken from the stored record, never from the fact that an alarm fired: an early or duplicate
 * alarm re-arms and does nothing; a late one renews at once (or finds the hold gone).
 */
export async function tick(store: LeaseStore, ops: RedisOps): Promise<void> {
  const rec = await store.get();
  if (!rec || rec.state !== "kept") {
    await store.disarm(); // a stale alarm after the end: nothing to keep
    return;
  }
  if (rec.releasing) return; // the release in flight decides what happens next
  const at = Date.now();
  if (at < nextWake(rec) - DEFAULT_LEASE_KEEPER.earlyToleranceMs) return store.arm(rec);
  if (at >= rec.maxHoldAt) return end(store, rec, "max-hold");
  if (missedHeartbeat(rec, at)) return end(store, rec, "missed-heartbeat");
  if (at >= rec.dueAt - DEFAULT_LEASE_KEEPER.earlyToleranceMs) return renew(store, ops, rec, at);
  return store.arm(rec);
}

async function renew(store: LeaseStore, ops: RedisOps, rec: KeptLease, at: number): Promise<void> {
  // Cut the last renewal so the lease ends exactly at maxHoldMs.
  const leaseMs = Math.min(rec.leaseMs, rec.maxHoldAt - at);
  const outcome = await ops.renew(rec, leaseMs);
  // Re-read: while we waited on Redis, a release (or heartbeat) may have run in this object.
  const cur = await store.get();
  if (!cur || cur.state !== "kept" || cur.releasing || !sameHold(cur.lease, rec.lease)) return;
  if (outcome.kind === "renewed") {
    cur.expiresAt = outcome.expiresAt;
    // Renewals are ordered by the lease version(s): carrying the last ones saves a stale round
    // trip. A renewal by another renewer of this lease (a holder's extend) moved them on the
    // server: the stale answer taught the core the server's, and this renewal went with them.
    if (outcome.hold) cur.lease = adoptVersions(cur.lease, outcome.hold);
    cur.renewals++;
    cur.dueAt = Date.now() + cur.intervalMs;
  } else if (outcome.kind === "gone") {
    return lose(store, cur, "gone");
  } else {
    // Unknown outcome: retry sooner while the last confirmed renewal still holds the lease.
    const retryAt = Date.now() + Math.max(50, Math.floor(cur.intervalMs / 3));
    if (retryAt >= cur.expiresAt) return lose(store, cur, "renew-failed");
    cur.dueAt = retryAt;
  }
  await store.put(cur);
  await store.arm(cur);
}

/** Stops on purpose; the lease runs out on its own (at maxHoldAt exactly for `max-hold`). */
async function end(
  store: LeaseStore,
  rec: KeptLease,
  reason: "max-hold" | "missed-heartbeat",
): Promise<void> {
  rec.state = "ended";
  rec.reason = reason;
  await store.put(rec);
  await store.disarm();
}

async function lose(
  store: LeaseStore,
  rec: KeptLease,
  reason: "gone" | "renew-failed",
): Promise<void> {
  rec.state = "lost";
  rec.reason = reason;
  await store.put(rec);
  await store.disarm();
}
