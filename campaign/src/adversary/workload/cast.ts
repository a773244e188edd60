import type { EdgelockClient } from "@edgelock/core";
import type { NodeRedisClient } from "@edgelock/testkit";
import {
  fairLockKeys,
  keyBase,
  latchKeys,
  permitSemaphoreKeys,
  readWriteLockKeys,
} from "../../../../packages/core/src/keys.ts";
import type { AdversaryHistory } from "../history.ts";
import { probe, type ResourceRef } from "../world/probe.ts";
import type { ActorContext } from "./actor.ts";
import { latchActor } from "./latch-actor.ts";
import { lockActor } from "./lock-actor.ts";
import { FAIR_LOCK, MULTI_LOCK, RW_READ, RW_WRITE } from "./lock-drivers.ts";
import { permitActor } from "./permit-actor.ts";
import { redeliveryActor } from "./redelivery-actor.ts";

/**
 * The primitives beyond the Lock and the Semaphore, in one place for `runAdversary`: their names
 * (each primitive its own names, so no two share an operation-record base), where their records
 * live, their setup, their actors and their state at quiescence.
 */
// Two of each lock kind the gate must cover: one name alone serialised every hand-off through
// one queue, and a loaded machine made too few sections of it (77 FairLock in 175 s).
export const FAIR_LOCKS = ["f", "k"];
// Two read-write locks: one alone, its writers waiting out every reader, made too few sections.
export const RW_LOCKS = ["r", "q", "u"];
export const PERMIT_SEMAPHORES = ["p"];
export const LATCHES = ["l", "m"];
export const PERMIT_SEMAPHORE_PERMITS = 2;

/** How many actors drive each (a config may set its own; absent: these). */
export interface CastSize {
  readonly fairLockActors?: number;
  readonly rwActors?: number;
  readonly multiLockActors?: number;
  readonly permitActors?: number;
  readonly latchActors?: number;
  /** Jobs redelivered much later, after the first delivery's records expired (redelivery-actor.ts). */
  readonly redeliveryActors?: number;
}

const DEFAULT_SIZE: Required<CastSize> = {
  fairLockActors: 2,
  rwActors: 3,
  multiLockActors: 2,
  permitActors: 2,
  latchActors: 2,
  redeliveryActors: 1,
};

/** The names the actors use, for their context. */
export const CAST_NAMES = {
  fairLocks: FAIR_LOCKS,
  rwLocks: RW_LOCKS,
  permitSemaphores: PERMIT_SEMAPHORES,
} as const;

/** Key base → resource for the primitives whose record base is not a Lock's (settle runs). */
export function castRecordBases(prefix: string): Map<string, ResourceRef> {
  const bases = new Map<string, ResourceRef>();
  for (const name of FAIR_LOCKS)
    bases.set(keyBase(prefix, name), { key: fairLockKeys(prefix, name).lock, kind: "lock" });
  for (const name of RW_LOCKS)
    bases.set(keyBase(prefix, name), {
      key: readWriteLockKeys(prefix, name).lock,
      kind: "read-write-lock",
    });
  for (const name of PERMIT_SEMAPHORES)
    bases.set(keyBase(prefix, name), {
      key: permitSemaphoreKeys(prefix, name).state,
      kind: "permit-expirable-semaphore",
    });
  return bases;
}

const keyed = (ref: ResourceRef): [string, ResourceRef] => [ref.key, ref];

/** A latch's record base and resource (latch names carry a generation: registered as used). */
export function latchRecordBase(prefix: string, name: string): [string, ResourceRef] {
  return [keyBase(prefix, name), { key: latchKeys(prefix, name).latch, kind: "count-down-latch" }];
}

export interface Cast {
  /** Starts every actor of the cast; resolves when all are done. */
  run(actor: (name: string, i: number) => ActorContext): Promise<void>;
  /**
   * Reads every resource the run touched that is not in `history.final` yet, and the time into
   * `finalAt`: call it after `runAdversary` read its own.
   */
  probeFinal(redis: NodeRedisClient, history: AdversaryHistory): Promise<void>;
}

/**
 * Sets the cast up on a fresh database: each permit semaphore's total (recorded in
 * `history.totals`). `recordBases` is the scheduler's map: latches add theirs as they come into use.
 */
export async function setUpCast(
  admin: EdgelockClient,
  prefix: string,
  size: CastSize,
  recordBases: Map<string, ResourceRef>,
  /** How long a redelivered job waits: past every record of its first delivery. */
  redeliveryAfterMs = 0,
): Promise<Cast> {
  const n = { ...DEFAULT_SIZE, ...size };
  for (const name of PERMIT_SEMAPHORES)
    await admin.permitExpirableSemaphore(name).trySetPermits(PERMIT_SEMAPHORE_PERMITS);
  // Latch names (`base.generation`) come into use as rounds go: each registers its record base
  // with the scheduler (the same map) before its first request.
  const latchesUsed = new Set<string>();
  const useLatch = (name: string) => {
    if (latchesUsed.has(name)) return;
    latchesUsed.add(name);
    const [base, ref] = latchRecordBase(prefix, name);
    recordBases.set(base, ref);
  };
  return {
    async run(actor) {
      const all: Promise<void>[] = [];
      let i = 200;
      const many = (
        count: number,
        tag: string,
        start: (ctx: ActorContext, k: number) => Promise<void>,
      ) => {
        for (let k = 0; k < count; k++) all.push(start(actor(`${tag}${k}`, i++), k));
      };
      many(n.fairLockActors, "F", (ctx) => lockActor(ctx, FAIR_LOCK));
      many(n.rwActors, "R", (ctx) => lockActor(ctx, [RW_READ, RW_WRITE]));
      many(n.multiLockActors, "M", (ctx) => lockActor(ctx, MULTI_LOCK));
      many(n.permitActors, "P", (ctx) => permitActor(ctx));
      if (redeliveryAfterMs > 0)
        many(n.redeliveryActors, "J", (ctx) => redeliveryActor(ctx, redeliveryAfterMs));
      many(Math.min(n.latchActors, LATCHES.length), "C", (ctx, k) =>
        latchActor(ctx, LATCHES[k]!, k * 1_000_000, useLatch),
      );
      await Promise.all(all);
    },
    async probeFinal(redis, history) {
      // Every resource the run touched and `runAdversary` did not read itself (the multi-only
      // lock name, each latch generation, ...), by the kind its runs logged.
      const refs = new Map<string, ResourceRef>();
      for (const ref of castRecordBases(prefix).values()) refs.set(ref.key, ref);
      for (const name of latchesUsed) refs.set(...keyed(latchRecordBase(prefix, name)[1]));
      for (const e of history.executions)
        refs.set(e.resource, { key: e.resource, kind: e.state.kind });
      let at = 0;
      for (const ref of refs.values()) {
        if (ref.key in history.final) continue;
        const read = await probe(redis, ref.key, ref.kind);
        history.final[ref.key] = read.state;
        at = Math.max(at, read.serverMs);
      }
      // The server time of quiescence, also when every resource was read already.
      const first = refs.values().next().value;
      if (at === 0 && first !== undefined)
        at = (await probe(redis, first.key, first.kind)).serverMs;
      history.finalAt = at;
    },
  };
}
