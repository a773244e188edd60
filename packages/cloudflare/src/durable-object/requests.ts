import {
  sameHold,
  type KeepableHold,
  type KeeperRequestBody,
  type KeeperStatus,
} from "@edgelock/core/hand-over";
import { DEFAULT_LEASE_KEEPER } from "./defaults.ts";
import { newRecord, statusOf } from "./record.ts";
import type { RedisOps } from "./redis-ops.ts";
import type { LeaseStore } from "./store.ts";
import { tick } from "./tick.ts";

/** One answer: the status, and the HTTP status to send it with. */
export interface Answer {
  readonly status: number;
  readonly body: KeeperStatus | { readonly error: string };
}

const ok = async (store: LeaseStore): Promise<Answer> => {
  const rec = await store.get();
  return {
    status: 200,
    body: statusOf(rec, rec?.state === "kept" ? await store.nextAlarm() : null),
  };
};

/** Hand-over. Repeating it (a retried request) answers the current status and changes nothing. */
export async function keep(
  store: LeaseStore,
  ops: RedisOps,
  body: KeeperRequestBody,
): Promise<Answer> {
  const existing = await store.get();
  if (existing) return sameHold(existing.lease, body.lease) ? ok(store) : conflict();
  const leaseMs = body.leaseMs ?? DEFAULT_LEASE_KEEPER.leaseMs;
  const rec = newRecord(
    body.lease,
    { leaseMs, maxHoldMs: body.maxHoldMs ?? 0, heartbeatMs: body.heartbeatMs ?? 0 },
    Date.now(),
  );
  await store.put(rec);
  await tick(store, ops); // renews at once: the holder learns now if the hold is already gone
  return ok(store);
}

/** Read-only: neither a heartbeat nor a request to Redis. */
export async function status(store: LeaseStore, lease: KeepableHold): Promise<Answer> {
  const rec = await store.get();
  return rec && !sameHold(rec.lease, lease) ? conflict() : ok(store);
}

/** "Still here". The answer tells a holder whether its lease is still kept, and why not. */
export async function heartbeat(store: LeaseStore, lease: KeepableHold): Promise<Answer> {
  const rec = await store.get();
  if (!rec) return ok(store);
  if (!sameHold(rec.lease, lease)) return conflict();
  if (rec.state === "kept") {
    rec.lastHeartbeatAt = Date.now();
    await store.put(rec);
    await store.arm(rec);
  }
  return ok(store);
}

/**
 * Releases in Redis, then stops. `releasing` is stored first, so a renewal whose request is in
 * flight cannot turn the race into a loss: if the release reached Redis first, the renewal finds
 * the hold gone, sees `releasing`, and leaves the verdict to us — `released`.
 */
export async function release(
  store: LeaseStore,
  ops: RedisOps,
  lease: KeepableHold,
): Promise<Answer> {
  const rec = await store.get();
  if (!rec) return ok(store);
  if (!sameHold(rec.lease, lease)) return conflict();
  // An ended lease may still be in Redis (it runs out on its own): releasing it frees the lock sooner.
  if (rec.releasing || (rec.state !== "kept" && rec.state !== "ended")) return ok(store);
  rec.releasing = true;
  await store.put(rec);
  const outcome = await ops.release(rec);
  const cur = (await store.get()) ?? rec;
  cur.releasing = false;
  if (outcome === "released") {
    cur.state = "released";
    cur.reason = null;
  } else if (cur.state === "kept") {
    cur.state = "ended";
    cur.reason = outcome === "not-held" ? "not-held" : "release-unknown";
  }
  await store.put(cur);
  await store.disarm();
  return ok(store);
}

function conflict(): Answer {
  return { status: 409, body: { error: "this keeper holds a different lease" } };
}
