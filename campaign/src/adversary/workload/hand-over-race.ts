import type { Permit } from "@edgelock/core";
import { permitSemaphoreKeys } from "../../../../packages/core/src/keys.ts";
import type { IntentKind } from "../history.ts";
import { realNow } from "../world/intent-context.ts";
import type { Invocation } from "../world/invocation.ts";
import { pause, type ActorContext } from "./actor.ts";
import { acquire, believe, extend, release, type Holding, type Section } from "./lock-actor.ts";
import { LOCK, type AnyHeld } from "./lock-drivers.ts";

/**
 * Sections that hand a Lock hold to another invocation while a renewal of it is still on its
 * way (a Worker that times out mid-`extend` and whose job is redelivered; issue 13: "holds
 * resumed in another invocation", "renewals and releases racing"). The lease is then renewed by
 * two objects, the first invocation's and the resumed one, each with its own lease version:
 * only the version on the server orders their renewals, and only the deadline bounds a late
 * copy of the resumed hold's first renewal (whose budget is the retry window, not its lease).
 */
export interface HandOverRace {
  /** Actors running these sections (beside `lockActors`). */
  readonly actors: number;
  /** The kind of hold raced (default a Lock's; "permit": a PermitExpirableSemaphore's permit). */
  readonly hold?: "lock" | "permit";
  /** The first invocation's fixed lease, ms: long, so the hold outlives every late copy. */
  readonly leaseMs: readonly [number, number];
  /**
   * The first invocation's `extend(ms)`, sent just before it hands the hold over and ends (its
   * copies still on their way); absent: it hands over with no renewal in flight.
   */
  readonly inFlightExtendMs?: readonly [number, number];
  /** The resumed hold's first `extend(ms)` (the docs' advice after `resumeHold`). */
  readonly resumeExtendMs: readonly [number, number];
  /** How long the resumed hold is held after that extend returns, then released, ms. */
  readonly holdMs: readonly [number, number];
}

/** One actor's loop of hand-over races on the run's lock names. */
export async function handOverRaceActor(ctx: ActorContext, race: HandOverRace): Promise<void> {
  while (realNow() < ctx.until) {
    if (race.hold === "permit") await permitRace(ctx, race, ctx.random.pick(ctx.permitSemaphores!));
    else await oneRace(ctx, race, ctx.random.pick(ctx.locks));
    await pause(ctx.random.int(0, 5));
  }
}

async function oneRace(ctx: ActorContext, race: HandOverRace, name: string): Promise<void> {
  const { random } = ctx;
  const s: Section = {
    ctx,
    driver: LOCK,
    names: [name],
    resources: LOCK.resources(ctx, [name]),
    owner: `${ctx.actor}-${random.int(0, 1e9)}`,
  };
  const inv = ctx.invocation();
  const handle = LOCK.handle(inv, [name], s.owner);
  const leaseMs = between(random, race.leaseMs);
  // Waits for the lock (the other racers hold it a second or two at a time).
  const waitMs = 4 * race.leaseMs[1];
  const first = await acquire(s, inv, false, waitMs, "acquire", () =>
    handle.acquire({ leaseMs, waitMs }),
  );
  if (first === null) return;
  // The first invocation's renewal, not awaited: it is still on its way at the hand-over.
  let inFlight: Promise<void> = Promise.resolve();
  if (race.inFlightExtendMs !== undefined) {
    inFlight = extend(s, first, between(random, race.inFlightExtendMs), "extend");
    // Its first copy reaches the world (only microtasks stand before it) before the invocation ends.
    await pause(2);
  }
  const moved = handOver(s, first);
  await extend(s, moved, between(random, race.resumeExtendMs), "resume-extend");
  await pause(between(random, race.holdMs));
  await release(s, moved);
  await inFlight;
}

/** `toJSON()` while the renewal may be in flight, the first invocation ends, another resumes. */
function handOver(s: Section, h: Holding): Holding {
  const lease = h.inv.run(() => h.held.toJSON());
  h.inv.end();
  for (const id of h.holdIds) s.ctx.ledger.letGo(id);
  const inv = s.ctx.invocation();
  const held = inv.run(() => inv.client.resumeHold(lease) as AnyHeld);
  return { held, holdIds: believe(s, held, inv, { keepAlive: false, resumed: true }), inv };
}

/** The same race on a PermitExpirableSemaphore's permit (its renewals ordered by its own version). */
async function permitRace(ctx: ActorContext, race: HandOverRace, name: string): Promise<void> {
  const { random, ledger } = ctx;
  const resource = permitSemaphoreKeys(ctx.prefix ?? "", name).state;
  const owner = `${ctx.actor}-${random.int(0, 1e9)}`;
  const fields = (kind: IntentKind, holdId?: number) => ({
    actor: ctx.actor,
    kind,
    primitive: "permit-expirable-semaphore" as const,
    resource,
    owner,
    ...(holdId === undefined ? {} : { holdId }),
  });
  const believe = (permit: Permit, inv: Invocation, resumed: boolean) =>
    ledger.believeLease(permit, inv.skew, {
      resource,
      owner: permit.id,
      fence: permit.fence,
      mode: "permit",
      keepAlive: false,
      resumed,
    });
  const extend = (permit: Permit, inv: Invocation, holdId: number, ms: number, kind: IntentKind) =>
    ledger.intent(fields(kind, holdId), async (intent) => {
      intent.fence = permit.fence;
      await inv.run(() => permit.extend(ms));
    });
  const inv = ctx.invocation();
  const leaseMs = between(random, race.leaseMs);
  const got = await ledger.intent(fields("permit-acquire"), async (intent) => {
    const permit = await inv.run(() =>
      inv.client.permitExpirableSemaphore(name).acquire({ leaseMs, waitMs: 4 * race.leaseMs[1] }),
    );
    intent.fence = permit.fence;
    intent.holdId = believe(permit, inv, false);
    return { permit, holdId: intent.holdId };
  });
  if (!got.ok) return;
  const first = got.value;
  let inFlight: Promise<unknown> = Promise.resolve();
  if (race.inFlightExtendMs !== undefined) {
    const ms = between(random, race.inFlightExtendMs);
    inFlight = extend(first.permit, inv, first.holdId, ms, "permit-extend");
    await pause(2);
  }
  const json = inv.run(() => first.permit.toJSON());
  inv.end();
  ledger.letGo(first.holdId);
  const next = ctx.invocation();
  const permit = next.run(() => next.client.resumeHold(json));
  const holdId = believe(permit, next, true);
  const ms = between(random, race.resumeExtendMs);
  await extend(permit, next, holdId, ms, "permit-resume-extend");
  await pause(between(random, race.holdMs));
  ledger.letGo(holdId);
  await ledger.intent(fields("permit-release", holdId), async (intent) => {
    intent.fence = permit.fence;
    await next.run(() => permit.release());
  });
  await inFlight;
}

function between(random: ActorContext["random"], [min, max]: readonly [number, number]): number {
  return random.int(min, max);
}
