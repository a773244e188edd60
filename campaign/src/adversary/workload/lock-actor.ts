import type { HeldLock } from "@edgelock/core";
import type { Invocation } from "../world/invocation.ts";
import { realNow } from "../world/intent-context.ts";
import { pause, type ActorContext } from "./actor.ts";

interface Holding {
  readonly held: HeldLock;
  readonly holdId: number;
  readonly inv: Invocation;
}

/**
 * One actor's loop on the Lock: acquire (try once or wait) with a fixed or kept-alive lease,
 * sometimes re-enter, work, extend (sometimes twice: a shorter then a longer lease), hand the
 * hold to another invocation through `toJSON()`/`client.resumeHold()`, and release every hold it has.
 */
export async function lockActor(ctx: ActorContext): Promise<void> {
  while (realNow() < ctx.until) {
    await oneSection(ctx);
    await pause(ctx.random.int(0, 5));
  }
}

async function oneSection(ctx: ActorContext): Promise<void> {
  const { random, ledger } = ctx;
  const name = random.pick(ctx.locks);
  const resource = ctx.lockKey(name);
  const inv = ctx.invocation();
  const owner = `${ctx.actor}-${random.int(0, 1e9)}`;
  const handle = inv.client.lock(name, { owner });
  const keepAlive = random.chance(0.4);
  const leaseMs = keepAlive ? undefined : random.int(ctx.leaseMs / 2, ctx.leaseMs * 2);
  const waitMs = random.chance(0.5) ? 0 : random.int(1, ctx.leaseMs * 2);
  const options = { ...(leaseMs === undefined ? {} : { leaseMs }) };
  const got = await ledger.intent(
    { actor: ctx.actor, kind: waitMs === 0 ? "tryAcquire" : "acquire", resource, owner },
    async (intent) => {
      const held = await inv.run(() =>
        waitMs === 0 ? handle.tryAcquire(options) : handle.acquire({ ...options, waitMs }),
      );
      if (held === null) intent.outcome = "none";
      else {
        intent.fence = held.fence;
        intent.holdId = ledger.believe(held, inv.skew, { resource, keepAlive, resumed: false });
      }
      return held === null ? null : { held, holdId: intent.holdId!, inv };
    },
  );
  if (!got.ok || got.value === null) return;
  const holdings: Holding[] = [got.value];
  if (random.chance(0.25)) {
    const again = await ledger.intent(
      { actor: ctx.actor, kind: "reenter", resource, owner },
      async (intent) => {
        const held = await inv.run(() => handle.tryAcquire(options));
        if (held === null) intent.outcome = "none";
        else {
          intent.fence = held.fence;
          intent.holdId = ledger.believe(held, inv.skew, { resource, keepAlive, resumed: false });
        }
        return held === null ? null : { held, holdId: intent.holdId!, inv };
      },
    );
    if (again.ok && again.value !== null) holdings.push(again.value);
  }
  await work(ctx, holdings[0]!, resource, owner);
  if (holdings.length === 1 && random.chance(0.3)) {
    const moved = await handOver(ctx, holdings[0]!, name, resource, owner);
    if (moved) holdings[0] = moved;
  }
  for (const holding of holdings.reverse()) await release(ctx, holding, resource, owner);
}

/** The critical section: a pause, sometimes an extend, sometimes two (shorter, then longer). */
async function work(ctx: ActorContext, h: Holding, resource: string, owner: string) {
  const { random } = ctx;
  await pause(random.int(0, ctx.leaseMs / 2));
  const extends_ = random.chance(0.5) ? (random.chance(0.5) ? 2 : 1) : 0;
  for (let i = 0; i < extends_; i++) {
    const ms =
      i === 0 && extends_ === 2
        ? random.int(ctx.minExtendMs, ctx.leaseMs / 2)
        : random.int(ctx.leaseMs / 2, ctx.leaseMs * 3);
    await extend(ctx, h, resource, owner, ms, "extend");
  }
  await pause(random.int(0, ctx.leaseMs));
}

async function extend(
  ctx: ActorContext,
  h: Holding,
  resource: string,
  owner: string,
  ms: number,
  kind: "extend" | "resume-extend",
): Promise<void> {
  await ctx.ledger.intent(
    { actor: ctx.actor, kind, resource, owner, holdId: h.holdId },
    async (intent) => {
      intent.fence = h.held.fence;
      await h.inv.run(() => h.held.extend(ms));
    },
  );
}

/**
 * Hands the hold to another invocation (a job queue redelivering it, a keeper): the first stops
 * acting on it; the second resumes it and, as the docs advise when clocks may differ, extends first.
 */
async function handOver(
  ctx: ActorContext,
  h: Holding,
  name: string,
  resource: string,
  owner: string,
): Promise<Holding | null> {
  const lease = h.inv.run(() => h.held.toJSON());
  ctx.ledger.letGo(h.holdId);
  await pause(ctx.random.int(0, ctx.leaseMs / 4));
  const inv = ctx.invocation();
  const held = inv.run(() => inv.client.resumeHold(lease));
  const holdId = ctx.ledger.believe(held, inv.skew, { resource, keepAlive: false, resumed: true });
  const moved = { held, holdId, inv };
  await extend(
    ctx,
    moved,
    resource,
    owner,
    ctx.random.int(ctx.leaseMs / 2, ctx.leaseMs * 2),
    "resume-extend",
  );
  await pause(ctx.random.int(0, ctx.leaseMs / 2));
  return moved;
}

async function release(ctx: ActorContext, h: Holding, resource: string, owner: string) {
  ctx.ledger.letGo(h.holdId);
  await ctx.ledger.intent(
    { actor: ctx.actor, kind: "release", resource, owner, holdId: h.holdId },
    async (intent) => {
      intent.fence = h.held.fence;
      await h.inv.run(() => h.held.release());
    },
  );
}
