import type { Permit } from "@edgelock/core";
import { permitSemaphoreKeys } from "../../../../packages/core/src/keys.ts";
import type { IntentKind } from "../history.ts";
import type { Invocation } from "../world/invocation.ts";
import { realNow } from "../world/intent-context.ts";
import { pause, type ActorContext } from "./actor.ts";

interface Holding {
  readonly permit: Permit;
  readonly holdId: number;
  readonly inv: Invocation;
}

interface Section {
  readonly ctx: ActorContext;
  readonly name: string;
  readonly resource: string;
  readonly owner: string;
}

/**
 * One actor's loop on a PermitExpirableSemaphore: take a permit (try once or wait) with a fixed or
 * kept-alive lease, extend it (sometimes shorter, then longer), hand it to another invocation
 * (`toJSON()`/`resume()`, which extends first), and release it, by the permit or by its id from
 * another invocation (`tryRelease(id)`, called again after an unknown outcome: one intent). Now and
 * then it raises the total by one and lowers it back (`addPermits`).
 */
export async function permitActor(ctx: ActorContext): Promise<void> {
  const names = ctx.permitSemaphores ?? [];
  if (names.length === 0) return;
  while (realNow() < ctx.until) {
    const name = ctx.random.pick(names);
    const section: Section = {
      ctx,
      name,
      resource: permitSemaphoreKeys(ctx.prefix ?? "", name).state,
      owner: `${ctx.actor}-${ctx.random.int(0, 1e9)}`,
    };
    if (ctx.random.chance(0.05)) await resize(section);
    else await oneSection(section);
    await pause(ctx.random.int(0, 5));
  }
}

function fields(s: Section, kind: IntentKind, holdId?: number) {
  return {
    actor: s.ctx.actor,
    kind,
    primitive: "permit-expirable-semaphore" as const,
    resource: s.resource,
    owner: s.owner,
    ...(holdId === undefined ? {} : { holdId }),
  };
}

async function oneSection(s: Section): Promise<void> {
  const { ctx } = s;
  const { random, ledger } = ctx;
  const inv = ctx.invocation();
  const semaphore = inv.client.permitExpirableSemaphore(s.name);
  const keepAlive = random.chance(0.4);
  const leaseMs = keepAlive ? undefined : random.int(ctx.leaseMs / 2, ctx.leaseMs * 2);
  const waits = ctx.tilt?.semaphoreWaits ?? 0.5;
  const waitMs = random.chance(1 - waits) ? 0 : random.int(1, ctx.leaseMs * 2);
  const options = { ...(leaseMs === undefined ? {} : { leaseMs }) };
  const got = await ledger.intent({ ...fields(s, "permit-acquire"), waitMs }, async (intent) => {
    const permit = await inv.run(() =>
      waitMs === 0 ? semaphore.tryAcquire(options) : semaphore.acquire({ ...options, waitMs }),
    );
    if (permit === null) {
      intent.outcome = "none";
      return null;
    }
    intent.fence = permit.fence;
    intent.holdId = believe(s, permit, inv, { keepAlive, resumed: false });
    return { permit, holdId: intent.holdId, inv };
  });
  if (!got.ok || got.value === null) return;
  let h: Holding = got.value;
  await pause(random.int(0, ctx.leaseMs / 2));
  const extends_ = random.chance(0.5) ? (random.chance(0.5) ? 2 : 1) : 0;
  for (let i = 0; i < extends_; i++) {
    const ms =
      i === 0 && extends_ === 2
        ? random.int(ctx.minExtendMs, ctx.leaseMs / 2)
        : random.int(ctx.leaseMs / 2, ctx.leaseMs * 3);
    await extend(s, h, ms, "permit-extend");
  }
  await pause(random.int(0, ctx.leaseMs));
  if (random.chance(0.3)) h = await handOver(s, h);
  await release(s, h);
}

function believe(
  s: Section,
  permit: Permit,
  inv: Invocation,
  how: { keepAlive: boolean; resumed: boolean },
): number {
  return s.ctx.ledger.believeLease(permit, inv.skew, {
    resource: s.resource,
    owner: permit.id,
    fence: permit.fence,
    mode: "permit",
    ...how,
  });
}

async function extend(s: Section, h: Holding, ms: number, kind: IntentKind): Promise<void> {
  await s.ctx.ledger.intent(fields(s, kind, h.holdId), async (intent) => {
    intent.fence = h.permit.fence;
    await h.inv.run(() => h.permit.extend(ms));
  });
}

/** Another invocation resumes the permit and, as the docs advise, extends it first. */
async function handOver(s: Section, h: Holding): Promise<Holding> {
  const { ctx } = s;
  const json = h.inv.run(() => h.permit.toJSON());
  // The first invocation is gone: its keeper, if any, renews no more (as the Lock's hand-over).
  h.inv.end();
  ctx.ledger.letGo(h.holdId);
  await pause(ctx.random.int(0, ctx.leaseMs / 4));
  const inv = ctx.invocation();
  const permit = inv.run(() => inv.client.resumeHold(json));
  const moved = {
    permit,
    holdId: believe(s, permit, inv, { keepAlive: false, resumed: true }),
    inv,
  };
  await extend(s, moved, ctx.random.int(ctx.leaseMs / 2, ctx.leaseMs * 2), "permit-resume-extend");
  return moved;
}

/**
 * Gives the permit back: by the permit itself, or by its id from another invocation. A release
 * by id that ends unknown is called again (one intent: a permit leaves the pool once); a repeat
 * told "not released" leaves the intent unknown, as its first call may have released it.
 */
async function release(s: Section, h: Holding): Promise<void> {
  const { ctx } = s;
  ctx.ledger.letGo(h.holdId);
  const byId = ctx.random.chance(0.5);
  await ctx.ledger.intent(fields(s, "permit-release", h.holdId), async (intent) => {
    intent.fence = h.permit.fence;
    if (!byId) return void (await h.inv.run(() => h.permit.release()));
    const inv = ctx.invocation();
    const semaphore = inv.client.permitExpirableSemaphore(s.name);
    let unknown = false;
    for (let tries = 1; ; tries++) {
      (intent.callStarts ??= []).push(realNow());
      try {
        const released = await inv.run(() => semaphore.tryRelease(h.permit.id));
        intent.outcome = released ? "ok" : unknown ? "OUTCOME_UNKNOWN" : "NOT_HELD";
        return;
      } catch (error) {
        if ((error as { code?: unknown }).code !== "OUTCOME_UNKNOWN" || tries >= 3) throw error;
        unknown = true;
      }
    }
  });
}

/** Raises the total by one, then lowers it back: each call one intent. */
async function resize(s: Section): Promise<void> {
  const inv = s.ctx.invocation();
  const semaphore = inv.client.permitExpirableSemaphore(s.name);
  const up = await s.ctx.ledger.intent(fields(s, "add-permits"), () =>
    inv.run(() => semaphore.addPermits(1)),
  );
  if (!up.ok) return;
  await pause(s.ctx.random.int(0, s.ctx.leaseMs));
  await s.ctx.ledger.intent(fields(s, "add-permits"), () =>
    inv.run(() => semaphore.addPermits(-1)),
  );
}
