import type { IntentKind } from "../history.ts";
import type { Invocation } from "../world/invocation.ts";
import { realNow } from "../world/intent-context.ts";
import { pause, type ActorContext } from "./actor.ts";
import { LOCK, type AnyHeld, type LockDriver, type LockHandle } from "./lock-drivers.ts";

export interface Holding {
  readonly held: AnyHeld;
  /** One belief per name of the target (a multi-lock has several). */
  readonly holdIds: readonly number[];
  readonly inv: Invocation;
}

/** What every intent of one section shares: who, on what. */
export interface Section {
  readonly ctx: ActorContext;
  readonly driver: LockDriver;
  readonly names: readonly string[];
  readonly resources: readonly string[];
  readonly owner: string;
}

/**
 * One actor's loop on a lock kind (the Lock by default; a FairLock, a ReadWriteLock side or a
 * MultiLock by `driver`): acquire (try once or wait) with a fixed or kept-alive lease, sometimes
 * re-enter, work, extend (sometimes twice: a shorter then a longer lease), hand the hold to
 * another invocation through `toJSON()`/`client.resumeHold()`, and release every hold it has.
 */
export async function lockActor(
  ctx: ActorContext,
  drivers: LockDriver | readonly LockDriver[] = LOCK,
): Promise<void> {
  // Several drivers (a read-write lock's two sides): one picked per section.
  const each = Array.isArray(drivers)
    ? (drivers as readonly LockDriver[])
    : [drivers as LockDriver];
  if (each.every((f) => f.targets(ctx).length === 0)) return;
  while (realNow() < ctx.until) {
    const driver = ctx.random.pick(each);
    await oneSection(ctx, driver, ctx.random.pick(driver.targets(ctx)));
    await pause(ctx.random.int(0, 5));
  }
}

async function oneSection(
  ctx: ActorContext,
  driver: LockDriver,
  names: readonly string[],
): Promise<void> {
  const { random } = ctx;
  const section: Section = {
    ctx,
    driver,
    names,
    resources: driver.resources(ctx, names),
    owner: `${ctx.actor}-${random.int(0, 1e9)}`,
  };
  const inv = ctx.invocation();
  await inv.ready;
  // Made inside the first acquire intent: a name the core refuses (an ill-formed one) throws
  // its typed error there, and the refusal is that intent's outcome.
  let made: LockHandle | undefined;
  const handle: LockHandle = {
    tryAcquire: (o) => (made ??= driver.handle(inv, names, section.owner)).tryAcquire(o),
    acquire: (o) => (made ??= driver.handle(inv, names, section.owner)).acquire(o),
  };
  const keepAlive = random.chance(ctx.tilt?.keepAlive ?? 0.4);
  const [shortest, longest] = ctx.tilt?.fixedLeaseMs ?? [ctx.leaseMs / 2, ctx.leaseMs * 2];
  const leaseMs = keepAlive ? undefined : random.int(shortest, longest);
  const waitMs = random.chance(1 - (ctx.tilt?.lockWaits ?? 0.5))
    ? 0
    : random.int(1, ctx.leaseMs * 2);
  const options = { ...(leaseMs === undefined ? {} : { leaseMs }) };
  const first = await acquire(
    section,
    inv,
    keepAlive,
    waitMs,
    waitMs === 0 ? "tryAcquire" : "acquire",
    () => (waitMs === 0 ? handle.tryAcquire(options) : handle.acquire({ ...options, waitMs })),
  );
  if (first === null) return;
  const holdings: Holding[] = [first];
  if (random.chance(ctx.tilt?.reenter ?? 0.25)) {
    const again = await acquire(section, inv, keepAlive, 0, "reenter", () =>
      handle.tryAcquire(options),
    );
    if (again !== null) holdings.push(again);
  }
  await work(section, holdings[0]!);
  if (holdings.length === 1 && random.chance(ctx.tilt?.handOver ?? 0.3)) {
    const moved = await handOver(section, holdings[0]!);
    if (moved) holdings[0] = moved;
  }
  for (const holding of holdings.reverse()) await release(section, holding);
}

/** One acquire call as an intent; the hold it was told of becomes one belief per name. */
export async function acquire(
  s: Section,
  inv: Invocation,
  keepAlive: boolean,
  waitMs: number,
  kind: "tryAcquire" | "acquire" | "reenter",
  call: () => Promise<AnyHeld | null>,
): Promise<Holding | null> {
  const got = await s.ctx.ledger.intent({ ...fields(s, kind), waitMs }, async (intent) => {
    const held = await inv.run(call);
    if (held === null) {
      intent.outcome = "none";
      return null;
    }
    const holdIds = believe(s, held, inv, { keepAlive, resumed: false });
    intent.fence = s.driver.fences(held, s.names)[0]!;
    intent.holdId = holdIds[0]!;
    return { held, holdIds, inv };
  });
  return got.ok ? got.value : null;
}

export function believe(
  s: Section,
  held: AnyHeld,
  inv: Invocation,
  how: { keepAlive: boolean; resumed: boolean },
): number[] {
  const fences = s.driver.fences(held, s.names);
  return s.resources.map((resource, i) =>
    s.ctx.ledger.believeLease(held, inv.skew, {
      resource,
      owner: s.owner,
      fence: fences[i]!,
      ...how,
      client: inv.clientNo,
      ...(s.driver.mode === undefined ? {} : { mode: s.driver.mode }),
    }),
  );
}

function fields(s: Section, kind: IntentKind, holdId?: number) {
  return {
    actor: s.ctx.actor,
    kind,
    primitive: s.driver.primitive,
    resource: s.resources[0]!,
    ...(s.resources.length > 1 ? { resources: s.resources } : {}),
    owner: s.owner,
    ...(holdId === undefined ? {} : { holdId }),
  };
}

/** The critical section: a pause, sometimes an extend, sometimes two (shorter, then longer). */
async function work(s: Section, h: Holding) {
  const { random, leaseMs, minExtendMs } = s.ctx;
  const tilt = s.ctx.tilt ?? {};
  await pause(between(random, tilt.pauseBeforeMs ?? [0, leaseMs / 2]));
  const extends_ = random.chance(tilt.extend ?? 0.5)
    ? random.chance(tilt.extendTwice ?? 0.5)
      ? 2
      : 1
    : 0;
  // Two extends: shorter then longer (a stale short renewal must not undo the long one), or
  // longer then shorter (a kept-alive hold then lives on the short lease: its keeper must renew
  // at a third of it, finding 7).
  // (Drawn as "short first", so a seed's sections stay what they were under the default.)
  const short = random.chance(1 - (tilt.shortLast ?? 0.5)) ? 0 : 1;
  for (let round = 0; round < (extends_ > 0 ? (tilt.extendRounds ?? 1) : 0); round++) {
    // (Drawn only in worlds that race extends, so a seed's sections stay what they were.)
    const racing =
      extends_ === 2 && tilt.racingExtends !== undefined && random.chance(tilt.racingExtends);
    const sent: Promise<void>[] = [];
    for (let i = 0; i < extends_; i++) {
      const ms =
        i === short && extends_ === 2
          ? between(random, tilt.shortExtendMs ?? [minExtendMs, leaseMs / 2])
          : random.int(leaseMs / 2, leaseMs * 3);
      const call = extend(s, h, ms, "extend");
      if (racing) sent.push(call);
      else await call;
    }
    await Promise.all(sent);
  }
  await pause(between(random, tilt.pauseAfterMs ?? [0, leaseMs]));
}

function between(random: ActorContext["random"], [min, max]: readonly [number, number]): number {
  return random.int(min, max);
}

export async function extend(
  s: Section,
  h: Holding,
  ms: number,
  kind: "extend" | "resume-extend",
): Promise<void> {
  await s.ctx.ledger.intent(fields(s, kind, h.holdIds[0]), async (intent) => {
    intent.fence = s.driver.fences(h.held, s.names)[0]!;
    await h.inv.run(() => h.held.extend(ms));
  });
}

/**
 * Hands the hold to another invocation (a job queue redelivering it, a keeper): the first stops
 * acting on it; the second resumes it and, as the docs advise when clocks may differ, extends first
 * (or, when the world tilts so, releases it at once: a provisional hold may be released).
 */
async function handOver(s: Section, h: Holding): Promise<Holding | null> {
  const { ctx } = s;
  const lease = h.inv.run(() => h.held.toJSON());
  // The first invocation is gone (a redelivered job): its keeper, if any, renews no more. Two
  // live renewers of one lease would shorten each other's (see campaign/README.md).
  h.inv.end();
  for (const id of h.holdIds) ctx.ledger.letGo(id);
  await pause(ctx.random.int(0, ctx.leaseMs / 4));
  const inv = ctx.invocation();
  // The one path users take for every kind of hold (a job queue redelivering it).
  const held = inv.run(() => inv.client.resumeHold(lease) as AnyHeld);
  const holdIds = believe(s, held, inv, { keepAlive: false, resumed: true });
  const moved = { held, holdIds, inv };
  // Drawn only when the world asks for it: other worlds keep their random streams (and rates).
  const releaseAtOnce =
    (ctx.tilt?.releaseResumed ?? 0) > 0 && ctx.random.chance(ctx.tilt!.releaseResumed!);
  if (releaseAtOnce) return moved;
  await extend(s, moved, ctx.random.int(ctx.leaseMs / 2, ctx.leaseMs * 2), "resume-extend");
  await pause(ctx.random.int(0, ctx.leaseMs / 2));
  return moved;
}

export async function release(s: Section, h: Holding) {
  for (const id of h.holdIds) s.ctx.ledger.letGo(id);
  await s.ctx.ledger.intent(fields(s, "release", h.holdIds[0]), async (intent) => {
    intent.fence = s.driver.fences(h.held, s.names)[0]!;
    await h.inv.run(() => h.held.release());
  });
}
