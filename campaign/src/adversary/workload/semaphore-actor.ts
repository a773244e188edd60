import type { SemaphoreHold } from "@edgelock/core";
import type { Invocation } from "../world/invocation.ts";
import { realNow } from "../world/intent-context.ts";
import { pause, type ActorContext } from "./actor.ts";

/**
 * One actor's loop on the Semaphore: take 1 or 2 permits (try once or wait in the queue), work,
 * and give them back, sometimes from another invocation through `toJSON()`/`resume()`.
 */
export async function semaphoreActor(ctx: ActorContext): Promise<void> {
  while (realNow() < ctx.until) {
    await oneSection(ctx);
    await pause(ctx.random.int(0, 5));
  }
}

async function oneSection(ctx: ActorContext): Promise<void> {
  const { random, ledger } = ctx;
  const name = random.pick(ctx.semaphores);
  const resource = ctx.semaphoreKey(name);
  const inv = ctx.invocation();
  const semaphore = inv.client.semaphore(name);
  const permits = random.int(1, 2);
  const waits = ctx.tilt?.semaphoreWaits ?? 0.5;
  const waitMs = random.chance(1 - waits) ? 0 : random.int(1, ctx.leaseMs * 2);
  const owner = `${ctx.actor}-${random.int(0, 1e9)}`;
  const got = await ledger.intent(
    { actor: ctx.actor, kind: "sem-acquire", resource, owner, permits, waitMs },
    async (intent) => {
      const hold = await inv.run(() =>
        waitMs === 0 ? semaphore.tryAcquire({ permits }) : semaphore.acquire({ permits, waitMs }),
      );
      if (hold === null) {
        intent.outcome = "none";
        return null;
      }
      return { hold, holdId: (intent.holdId = ledger.believePermits(resource, owner, permits)) };
    },
  );
  if (!got.ok || got.value === null) return;
  const { holdId } = got.value;
  await pause(random.int(0, ctx.leaseMs));
  let hold: SemaphoreHold = got.value.hold;
  let releaser: Invocation = inv;
  if (random.chance(ctx.tilt?.semaphoreHandOver ?? 0.3)) {
    const json = inv.run(() => hold.toJSON());
    releaser = ctx.invocation();
    hold = releaser.run(() => releaser.client.resumeHold(json));
  }
  ledger.letGo(holdId);
  // A release that ends unknown is called again at once, as its docs say (the same operation,
  // so never applied twice): one intent. One that still failed (unknown again, or known not
  // applied) is called again later from another invocation, through `toJSON()` (which carries
  // the release's current id), as a Worker retrying the job would: a new intent, the same hold.
  for (let call = 1; call <= MAX_RELEASE_CALLS; call++) {
    if (call > 1) {
      const json = releaser.run(() => hold.toJSON());
      releaser = ctx.invocation();
      const next = releaser;
      hold = next.run(() => next.client.resumeHold(json));
    }
    const done = await ledger.intent(
      { actor: ctx.actor, kind: "sem-release", resource, owner, permits, holdId },
      async (intent) => {
        for (let tries = 1; ; tries++) {
          (intent.callStarts ??= []).push(realNow());
          try {
            return await releaser.run(() => hold.release());
          } catch (error) {
            if ((error as { code?: unknown }).code !== "OUTCOME_UNKNOWN" || tries >= 3) throw error;
          }
        }
      },
    );
    if (done.ok || done.code === "NOT_HELD") return;
  }
}

/** Release calls per hold before the actor gives up (each a fresh intent on a fresh path). */
const MAX_RELEASE_CALLS = 6;
