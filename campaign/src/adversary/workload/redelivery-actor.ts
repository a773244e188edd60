import type { SerializedHold } from "@edgelock/core";
import { realNow } from "../world/intent-context.ts";
import { pause, type ActorContext } from "./actor.ts";
import { FAIR_LOCK, LOCK, MULTI_LOCK, RW_READ, RW_WRITE, type AnyHeld } from "./lock-drivers.ts";

/**
 * A job queue that redelivers: the job took a hold and put it in its payload (`toJSON()`), then
 * finished (released) or crashed (the lease runs out); much later — after every deadline and
 * operation record of the first delivery has expired — the queue delivers the job again, possibly
 * twice at once, and each delivery resumes the hold and does what the job does: extends first (as
 * the docs advise), works, releases. Every such call must fail (the hold is gone; a new holder's
 * lock is not its), never free or renew another holder's lock.
 */
export async function redeliveryActor(ctx: ActorContext, laterMs: number): Promise<void> {
  const drivers = [LOCK, FAIR_LOCK, RW_READ, RW_WRITE, MULTI_LOCK].filter(
    (f) => f.targets(ctx).length > 0,
  );
  if (drivers.length === 0) return;
  while (realNow() + laterMs < ctx.until) {
    const driver = ctx.random.pick(drivers);
    const names = ctx.random.pick(driver.targets(ctx));
    const resources = driver.resources(ctx, names);
    const owner = `${ctx.actor}-${ctx.random.int(0, 1e9)}`;
    const fields = (
      kind: "tryAcquire" | "release" | "resume-extend" | "resume-release",
      holdId?: number,
    ) => ({
      actor: ctx.actor,
      kind,
      primitive: driver.primitive,
      resource: resources[0]!,
      ...(resources.length > 1 ? { resources } : {}),
      owner,
      ...(holdId === undefined ? {} : { holdId }),
    });
    const believe = (held: AnyHeld, skew: { ms: number }, resumed: boolean) => {
      const fences = driver.fences(held, names);
      return resources.map((resource, i) =>
        ctx.ledger.believeLease(held, skew, {
          resource,
          owner,
          fence: fences[i]!,
          keepAlive: false,
          resumed,
          ...(driver.mode === undefined ? {} : { mode: driver.mode }),
        }),
      );
    };

    // The first delivery: a fixed lease, then released or left to run out (a crash).
    const first = ctx.invocation();
    const leaseMs = ctx.random.int(ctx.leaseMs / 2, ctx.leaseMs * 2);
    const got = await ctx.ledger.intent(fields("tryAcquire"), async (intent) => {
      const held = await first.run(() =>
        driver.handle(first, names, owner).tryAcquire({ leaseMs }),
      );
      if (held === null) {
        intent.outcome = "none";
        return null;
      }
      intent.fence = driver.fences(held, names)[0]!;
      const holdIds = believe(held, first.skew, false);
      intent.holdId = holdIds[0]!;
      return { held, holdIds };
    });
    if (!got.ok || got.value === null) {
      await pause(ctx.random.int(1, ctx.leaseMs));
      continue;
    }
    const { held, holdIds } = got.value;
    const payload = first.run(() => held.toJSON()) as SerializedHold;
    await pause(ctx.random.int(0, ctx.leaseMs / 2));
    for (const id of holdIds) ctx.ledger.letGo(id);
    if (ctx.random.chance(0.5))
      await ctx.ledger.intent(fields("release", holdIds[0]), async (intent) => {
        intent.fence = driver.fences(held, names)[0]!;
        await first.run(() => held.release());
      });
    first.end();

    // Much later: once, or twice at once.
    await pause(laterMs);
    const deliveries = ctx.random.chance(0.5) ? 2 : 1;
    await Promise.all(
      Array.from({ length: deliveries }, async () => {
        const inv = ctx.invocation();
        const again = inv.run(() => inv.client.resumeHold(payload) as AnyHeld);
        const ids = believe(again, inv.skew, true);
        await ctx.ledger.intent(fields("resume-extend", ids[0]), async (intent) => {
          intent.fence = driver.fences(again, names)[0]!;
          await inv.run(() => again.extend(ctx.random.int(ctx.leaseMs / 2, ctx.leaseMs * 2)));
        });
        for (const id of ids) ctx.ledger.letGo(id);
        // The job goes on to release either way, as a `finally` would.
        await ctx.ledger.intent(fields("resume-release", ids[0]), async (intent) => {
          intent.fence = driver.fences(again, names)[0]!;
          await inv.run(() => again.release());
        });
        inv.end();
      }),
    );
  }
}
