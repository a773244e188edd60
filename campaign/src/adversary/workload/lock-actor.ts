import type { IntentKind } from "../history.ts";
import type { Invocation } from "../world/invocation.ts";
import { realNow } from "../world/intent-context.ts";
import { pause, type ActorContext } from "./actor.ts";
import { LOCK, type AnyHeld, type LockFlavor } from "./lock-flavors.ts";

interface Holding {
  readonly held: AnyHeld;
  /** One belief per name of the target (a multi-lock has several). */
  readonly holdIds: readonly number[];
  readonly inv: Invocation;
}

/** What every intent of one section shares: who, on what. */
interface Section {
  readonly ctx: ActorContext;
  readonly flavor: LockFlavor;
  readonly names: readonly string[];
  readonly resources: readonly string[];
  readonly owner: string;
}

/**
 * One actor's loop on a lock kind (the Lock by default; a FairLock, a ReadWriteLock side or a
 * MultiLock by `flavor`): acquire (try once or wait) with a fixed or kept-alive lease, sometimes
 * re-enter, work, extend (sometimes twice: a shorter then a longer lease), hand the hold to
 * another invocation through `toJSON()`/`client.resumeHold()`, and release every hold it has.
 */
export async function lockActor(
  ctx: ActorContext,
  flavors: LockFlavor | readonly LockFlavor[] = LOCK,
): Promise<void> {
  // Several flavors (a read-write lock's two sides): one picked per section.
  const each = Array.isArray(flavors)
    ? (flavors as readonly LockFlavor[])
    : [flavors as LockFlavor];
  if (each.every((f) => f.targets(ctx).length === 0)) return;
  while (realNow() < ctx.until) {
    const flavor = ctx.random.pick(each);
    await oneSection(ctx, flavor, ctx.random.pick(flavor.targets(ctx)));
    await pause(ctx.random.int(0, 5));
  }
}

async function oneSection(
  ctx: ActorContext,
  flavor: LockFlavor,
  names: readonly string[],
): Promise<void> {
  const { random } = ctx;
  const section: Section = {
    ctx,
    flavor,
    names,
    resources: flavor.resources(ctx, names),
    owner: `${ctx.actor}-${random.int(0, 1e9)}`,
  };
  const inv = ctx.invocation();
  const handle = flavor.handle(inv, names, section.owner);
  const keepAlive = random.chance(ctx.tilt?.keepAlive ?? 0.4);
  const leaseMs = keepAlive ? undefined : random.int(ctx.leaseMs / 2, ctx.leaseMs * 2);
  const waitMs = random.chance(0.5) ? 0 : random.int(1, ctx.leaseMs * 2);
  const options = { ...(leaseMs === undefined ? {} : { leaseMs }) };
  const first = await acquire(
    section,
    inv,
    keepAlive,
    waitMs === 0 ? "tryAcquire" : "acquire",
    () => (waitMs === 0 ? handle.tryAcquire(options) : handle.acquire({ ...options, waitMs })),
  );
  if (first === null) return;
  const holdings: Holding[] = [first];
  if (random.chance(0.25)) {
    const again = await acquire(section, inv, keepAlive, "reenter", () =>
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
async function acquire(
  s: Section,
  inv: Invocation,
  keepAlive: boolean,
  kind: "tryAcquire" | "acquire" | "reenter",
  call: () => Promise<AnyHeld | null>,
): Promise<Holding | null> {
  const got = await s.ctx.ledger.intent(fields(s, kind), async (intent) => {
    const held = await inv.run(call);
    if (held === null) {
      intent.outcome = "none";
      return null;
    }
    const holdIds = believe(s, held, inv, { keepAlive, resumed: false });
    intent.fence = s.flavor.fences(held, s.names)[0]!;
    intent.holdId = holdIds[0]!;
    return { held, holdIds, inv };
  });
  return got.ok ? got.value : null;
}

function believe(
  s: Section,
  held: AnyHeld,
  inv: Invocation,
  how: { keepAlive: boolean; resumed: boolean },
): number[] {
  const fences = s.flavor.fences(held, s.names);
  return s.resources.map((resource, i) =>
    s.ctx.ledger.believeLease(held, inv.skew, {
      resource,
      owner: s.owner,
      fence: fences[i]!,
      ...how,
      ...(s.flavor.mode === undefined ? {} : { mode: s.flavor.mode }),
    }),
  );
}

function fields(s: Section, kind: IntentKind, holdId?: number) {
  return {
    actor: s.ctx.actor,
    kind,
    primitive: s.flavor.primitive,
    resource: s.resources[0]!,
    ...(s.resources.length > 1 ? { resources: s.resources } : {}),
    owner: s.owner,
    ...(holdId === undefined ? {} : { holdId }),
  };
}

/** The critical section: a pause, sometimes an extend, sometimes two (shorter, then longer). */
async function work(s: Section, h: Holding) {
  const { random, leaseMs, minExtendMs } = s.ctx;
  await pause(random.int(0, leaseMs / 2));
  const extends_ = random.chance(s.ctx.tilt?.extend ?? 0.5) ? (random.chance(0.5) ? 2 : 1) : 0;
  // Two extends: shorter then longer (a stale short renewal must not undo the long one), or
  // longer then shorter (a kept-alive hold then lives on the short lease: its keeper must renew
  // at a third of it, finding 7).
  const short = random.chance(0.5) ? 0 : 1;
  for (let i = 0; i < extends_; i++) {
    const ms =
      i === short && extends_ === 2
        ? random.int(minExtendMs, leaseMs / 2)
        : random.int(leaseMs / 2, leaseMs * 3);
    await extend(s, h, ms, "extend");
  }
  await pause(random.int(0, leaseMs));
}

async function extend(
  s: Section,
  h: Holding,
  ms: number,
  kind: "extend" | "resume-extend",
): Promise<void> {
  await s.ctx.ledger.intent(fields(s, kind, h.holdIds[0]), async (intent) => {
    intent.fence = s.flavor.fences(h.held, s.names)[0]!;
    await h.inv.run(() => h.held.extend(ms));
  });
}

/**
 * Hands the hold to another invocation (a job queue redelivering it, a keeper): the first stops
 * acting on it; the second resumes it and, as the docs advise when clocks may differ, extends first.
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
  await extend(s, moved, ctx.random.int(ctx.leaseMs / 2, ctx.leaseMs * 2), "resume-extend");
  await pause(ctx.random.int(0, ctx.leaseMs / 2));
  return moved;
}

async function release(s: Section, h: Holding) {
  for (const id of h.holdIds) s.ctx.ledger.letGo(id);
  await s.ctx.ledger.intent(fields(s, "release", h.holdIds[0]), async (intent) => {
    intent.fence = s.flavor.fences(h.held, s.names)[0]!;
    await h.inv.run(() => h.held.release());
  });
}
