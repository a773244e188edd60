import { latchKeys } from "../../../../packages/core/src/keys.ts";
import type { IntentKind } from "../history.ts";
import { realNow } from "../world/intent-context.ts";
import { pause, type ActorContext } from "./actor.ts";

/** Latch TTL: far beyond a run, so a round never opens by expiry. */
const LATCH_TTL_MS = 10 * 60_000;
/** Recovery passes per round (count what did not apply, again). */
const RECOVERIES = 3;

interface Round {
  readonly ctx: ActorContext;
  readonly name: string;
  readonly resource: string;
  readonly round: number;
}

/**
 * One coordinator per latch name, round after round: `trySetCount(n)` from one invocation; `n`
 * `countDown()` calls, each from an invocation of its own, at once, while another invocation
 * `await`s. Recovery as the docs advise: a `countDown` that ended unknown (or failed) is not
 * repeated blindly; once the round's calls are done, `getCount()` says how many did not apply,
 * and that many new calls count them. The round ends with an `await` that must see it open.
 */
export async function latchActor(
  ctx: ActorContext,
  base: string,
  firstRound: number,
  use: (name: string) => void,
): Promise<void> {
  let generation = 0;
  for (let round = firstRound; realNow() < ctx.until; round++) {
    // A round left counting (its recovery failed too) keeps its latch: go on on a new one.
    const name = `${base}.${generation}`;
    use(name);
    const resource = latchKeys(ctx.prefix ?? "", name).latch;
    if (!(await oneRound({ ctx, name, resource, round }))) generation++;
    await pause(ctx.random.int(0, 5));
  }
}

function fields(r: Round, kind: IntentKind) {
  return {
    actor: r.ctx.actor,
    kind,
    primitive: "count-down-latch" as const,
    resource: r.resource,
    owner: `${r.ctx.actor}-r${r.round}`,
    round: r.round,
  };
}

/** One round; false when the latch may be left counting. */
async function oneRound(r: Round): Promise<boolean> {
  const { ctx } = r;
  const n = ctx.random.int(2, 4);
  if (!(await set(r, n))) return false;
  const waiter = awaitOpen(r, ctx.random.int(ctx.leaseMs, ctx.leaseMs * 4));
  await Promise.all(Array.from({ length: n }, () => countDown(r)));
  for (let pass = 0; pass < RECOVERIES; pass++) {
    const left = await count(r);
    if (left === 0 || left === null) break;
    await Promise.all(Array.from({ length: left }, () => countDown(r)));
  }
  await waiter;
  return awaitOpen(r, ctx.leaseMs * 2);
}

/**
 * Sets the round's count. An unknown outcome is read back with `getCount()`: `n` means it applied
 * (a later round's set can only follow an open latch, so nothing else set it); 0 means it did not,
 * and one new call sets it.
 */
async function set(r: Round, n: number): Promise<boolean> {
  for (let attempt = 0; attempt < 2; attempt++) {
    const inv = r.ctx.invocation();
    const latch = inv.client.countDownLatch(r.name);
    const told = await r.ctx.ledger.intent(fields(r, "latch-set"), async (intent) => {
      const applied = await inv.run(() => latch.trySetCount(n, { ttlMs: LATCH_TTL_MS }));
      if (!applied) intent.outcome = "none";
      return applied;
    });
    if (told.ok) return told.value;
    const left = await count(r);
    if (left === n) return true;
    if (left !== 0) return false;
  }
  return false;
}

async function countDown(r: Round): Promise<void> {
  const inv = r.ctx.invocation();
  await r.ctx.ledger.intent(fields(r, "latch-count-down"), () =>
    inv.run(() => inv.client.countDownLatch(r.name).countDown()),
  );
}

/** The count as a fresh invocation reads it (null: the read failed). */
async function count(r: Round): Promise<number | null> {
  const inv = r.ctx.invocation();
  for (let tries = 0; tries < 3; tries++) {
    try {
      return await inv.run(() => inv.client.countDownLatch(r.name).getCount());
    } catch {
      // a read changes nothing: read again
    }
  }
  return null;
}

async function awaitOpen(r: Round, waitMs: number): Promise<boolean> {
  const inv = r.ctx.invocation();
  const told = await r.ctx.ledger.intent(fields(r, "latch-await"), async (intent) => {
    const open = await inv.run(() => inv.client.countDownLatch(r.name).await({ waitMs }));
    if (!open) intent.outcome = "none";
    return open;
  });
  return told.ok && told.value;
}
