import type { NodeRedisClient, RedisProcess } from "@edgelock/testkit";
import { applyMemoryPressure, relieveMemoryPressure } from "./eviction-pressure.ts";
import type { AdversaryHistory } from "../history.ts";
import { realNow } from "./intent-context.ts";
import type { ResourceRef } from "./probe.ts";
import type { Scheduler } from "./scheduler.ts";
import type { ServerClock } from "./server-clock/server-clock.ts";
import { snapshotRollback } from "./snapshot-rollback.ts";

/** Which faults on the data a run injects, spread evenly over it. */
export interface DataFaultPlan {
  /** Snapshot, then (later in the same slot, holds live) a rollback to it. @default 0 */
  readonly rollbacks?: number;
  /**
   * Grants between a snapshot and its rollback (what the rollback loses: each a grant epoch a
   * long-lived client may remember): the rollback comes once this many new holds (an owner and
   * fence the logged states had not shown) were granted, or at six tenths of its slot, whichever
   * is first. @default 10
   */
  readonly grantsLost?: number;
  /**
   * Memory pressure under the server's evicting policy (set up front, `evictionPolicy`), while
   * locks are held: Redis evicts those holds (the shortest TTLs), then the pressure is relieved.
   * @default 0
   */
  readonly evictions?: number;
  /**
   * Steps of the server's wall clock (ms; negative: back), in this order, each in the middle of
   * its equal slot of the run (the run's Redis then starts with the clock shim: `serverClock`).
   * @default []
   */
  readonly clockSteps?: readonly number[];
  /**
   * Where the server's clock starts, from the real time (ms; negative: behind), before anything
   * runs: so the steps forward can keep it within the clients' `clockErrorMs` of the real time.
   * @default 0
   */
  readonly clockStartMs?: number;
}

export interface DataFaultWorld {
  readonly redis: RedisProcess;
  readonly admin: NodeRedisClient;
  /** Loads the scripts again (a restart empties the script cache; the world preloads them). */
  readonly reloadScripts: () => Promise<void>;
  readonly scheduler: Scheduler;
  readonly history: AdversaryHistory;
  /** The resources whose state each fault changes (logged right after it). */
  readonly resources: readonly ResourceRef[];
  readonly from: number;
  readonly until: number;
  /** The run's server clock, when the plan steps it. */
  readonly serverClock?: ServerClock;
}

/**
 * Drives the plan while the actors run: each rollback gets an equal slot of the run, takes its
 * snapshot as the slot begins and rolls back once `grantsLost` holds were granted since (counted,
 * not timed: a loaded machine grants few), so the grants, renewals and releases in between (live holds
 * among them) are lost, and the rest of the slot runs on the restored data set (a restart on a
 * loaded machine takes up to a second). Each fault runs between two script runs (none
 * in flight) and is recorded in `history.dataFaults`.
 */
export async function driveDataFaults(plan: DataFaultPlan, world: DataFaultWorld): Promise<void> {
  const faults = (world.history.dataFaults ??= []);
  await Promise.all([
    driveEvictions(plan.evictions ?? 0, world),
    driveClockSteps(plan.clockSteps ?? [], world),
  ]);
  const rollbacks = plan.rollbacks ?? 0;
  if (rollbacks === 0) return;
  const rollback = snapshotRollback(world.redis);
  const slot = (world.until - world.from) / rollbacks;
  for (let i = 0; i < rollbacks; i++) {
    await sleepUntil(world.from + slot * i);
    const snap = await world.scheduler.worldEvent("snapshot", [], () => rollback.takeSnapshot());
    faults.push({ kind: "snapshot", ...snap });
    const latest = world.from + slot * (i + 0.6);
    const wanted = plan.grantsLost ?? 10;
    while (realNow() < latest && grantsSince(world.history, snap.seq) < wanted) await sleep(10);
    const back = await world.scheduler.worldEvent("rollback", world.resources, () =>
      rollback.rollbackToSnapshot(),
    );
    faults.push({ kind: "rollback", ...back });
    // Outside the fault: copies meanwhile find NOSCRIPT and send the body (the core's fallback).
    await world.reloadScripts();
  }
}

/**
 * Each eviction in its slot of the run: from a third into it (up to two thirds), as soon as some
 * client believes it holds a lock whose key exists, memory pressure evicts those keys, then lifts. A try that finds
 * none live (they ran out meanwhile) is logged and tried again 10 ms later.
 */
async function driveEvictions(evictions: number, world: DataFaultWorld): Promise<void> {
  const faults = (world.history.dataFaults ??= []);
  const slot = (world.until - world.from) / Math.max(evictions, 1);
  for (let i = 0; i < evictions; i++) {
    await sleepUntil(world.from + slot * (i + 1 / 3));
    const latest = world.from + slot * (i + 2 / 3);
    for (let evicted = 0; evicted === 0 && realNow() < latest;) {
      if ((await liveLocks(world)).length === 0) {
        await sleep(10);
        continue;
      }
      const done = await world.scheduler.worldEvent("eviction", world.resources, async () => {
        // Read again between two runs (none in flight): a key may have run out meanwhile.
        const live = await liveLocks(world);
        if (live.length === 0) return;
        // Little headroom: the limit is reached within a few filler keys, before leases run out.
        const pressure = await applyMemoryPressure(world.admin, {
          until: live,
          headroomBytes: 4 * 1024,
        });
        evicted = pressure.evictedKeys;
        await relieveMemoryPressure(world.admin, "edgelock-campaign:filler", true);
      });
      faults.push({ kind: "eviction", ...done, evicted });
    }
  }
}

/**
 * Each step of the server's clock in the middle of its slot, between two script runs (none in
 * flight), with every resource's state logged right after it in the stepped clock.
 */
async function driveClockSteps(steps: readonly number[], world: DataFaultWorld): Promise<void> {
  if (steps.length === 0) return;
  const clock = world.serverClock;
  if (clock === undefined) throw new Error("a plan with clockSteps needs the run's serverClock");
  const faults = (world.history.dataFaults ??= []);
  const slot = (world.until - world.from) / steps.length;
  for (const [i, stepMs] of steps.entries()) {
    await sleepUntil(world.from + slot * (i + 0.5));
    // Every resource the runs touched so far, its state logged in the stepped clock right after
    // the step (the cast's too: the oracle then judges each expiry by the clock that ends it).
    const touched = new Map(world.resources.map((r) => [r.key, r]));
    for (const e of world.history.executions)
      if (!touched.has(e.resource) && !e.script.startsWith("world/"))
        touched.set(e.resource, { key: e.resource, kind: e.state.kind });
    const resources = [...touched.values()];
    const done = await world.scheduler.worldEvent("clock-step", resources, async () => {
      clock.stepServerClock(stepMs);
    });
    faults.push({ kind: "clock-step", ...done, stepMs, offsetMs: clock.offsetMs });
  }
}

/** The run's lock keys that exist now and that some client believes it holds (a live hold). */
async function liveLocks(world: DataFaultWorld): Promise<string[]> {
  const believed = new Set(
    world.history.beliefs
      .filter((b) => b.releasedAt === null && b.abortedAt === null)
      .map((b) => b.resource),
  );
  const keys = world.resources
    .filter((r) => r.kind === "lock" && believed.has(r.key))
    .map((r) => r.key);
  const live: string[] = [];
  for (const key of keys) if ((await world.admin.exists(key)) === 1) live.push(key);
  return live;
}

/** New lock holds (owner and fence) in the states logged from run `seq` on. */
function grantsSince(history: AdversaryHistory, seq: number): number {
  const seen = new Set<string>();
  for (let i = 0; i < seq && i < history.executions.length; i++) {
    const s = history.executions[i]!.state;
    if (s.kind === "lock" && s.owner !== null) seen.add(`${s.owner}/${s.fence}`);
  }
  let grants = 0;
  for (const e of history.executions.slice(seq)) {
    const s = e.state;
    if (s.kind !== "lock" || s.owner === null || seen.has(`${s.owner}/${s.fence}`)) continue;
    seen.add(`${s.owner}/${s.fence}`);
    grants++;
  }
  return grants;
}

function sleepUntil(at: number): Promise<void> {
  return sleep(at - realNow());
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
}
