import { createClient, type EdgelockClient } from "@edgelock/core";
import {
  createExecutionContext,
  env,
  runInDurableObject,
  waitOnExecutionContext,
} from "cloudflare:test";
import { expect } from "vitest";
import type { KeptLease } from "../../src/durable-object/record.ts";
import {
  leaseObjectName,
  waitUntilKeeper,
  type KeepableHold,
  type KeeperEvent,
} from "../../src/index.ts";
import { serverRemainingMs, type AnyHeld, type KeptKind } from "./kept-kinds.ts";
import { keeper } from "./support.ts";
import { workerdRedis } from "./upstash.ts";

/**
 * Short leases, so several pass in a few seconds: the keeper renews every 500 ms. Not shorter: six
 * kinds renew at once beside the rest of the suite, and a loaded machine has run their alarms
 * 700-900 ms late together (a 900 ms lease then lapsed between renewals).
 */
export const LEASE_MS = 1_500;

/**
 * A Worker invocation that takes a hold of kind `k` with the client's default (kept-alive) lease,
 * answers, and keeps it with a `waitUntil` keeper whose budget ends after 1.2 s: before that it
 * hands the hold to the Durable Object keeper. Resolves once the invocation is over (every
 * `waitUntil` promise settled): from then on only the Durable Object renews the hold.
 */
export async function acquireInWorker(k: KeptKind, prefix: string, name: string) {
  const ctx = createExecutionContext();
  const events: KeeperEvent[] = [];
  const client = createClient({
    redis: workerdRedis(),
    prefix,
    leaseMs: LEASE_MS,
    keeper: waitUntilKeeper({
      waitUntil: ctx,
      budgetMs: 1_200,
      marginMs: 300,
      onEvent: (e) => events.push(e),
      handoff: { keeper: keeper(), maxHoldMs: 60_000, leaseMs: LEASE_MS },
    }),
  });
  const held: AnyHeld = await k.acquire(client, name);
  const hold = held.toJSON(); // what the Worker's response would carry
  await waitOnExecutionContext(ctx);
  return { held, hold, events };
}

/** The record the keeper object stores for `hold`. */
export async function keptRecord(hold: KeepableHold): Promise<KeptLease | undefined> {
  const stub = env.LEASE_KEEPER.get(env.LEASE_KEEPER.idFromName(await leaseObjectName(hold)));
  return runInDurableObject(stub, (_, state) => state.storage.get<KeptLease>("lease"));
}

/**
 * While at least `ms` pass, the server shows this hold with lease left at every look (polled,
 * not slept through): nobody but the keeper renews it, so that is the keeper's doing.
 */
export async function heldOnServerFor(
  probe: EdgelockClient,
  k: KeptKind,
  name: string,
  hold: KeepableHold,
  ms: number,
): Promise<number> {
  const from = Date.now();
  let looks = 0;
  while (Date.now() - from < ms) {
    const left = await serverRemainingMs(probe, k, name, hold);
    if (left <= 0) {
      // Say what the keeper knew: a renewal overdue by more than the lease (a stalled machine)
      // is not the same failure as a keeper that stopped renewing.
      const rec = await keptRecord(hold);
      const at = Date.now();
      expect.fail(
        `${k.kind}: no lease left on the server ${at - from} ms in; keeper: ${rec?.state}, ` +
          `${rec?.renewals} renewals, due ${rec ? at - rec.dueAt : "?"} ms ago, ` +
          `confirmed until ${rec ? rec.expiresAt - at : "?"} ms from now`,
      );
    }
    looks++;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return looks;
}

/**
 * Renews `hold` as another renewer of the same lease would (a copy of the hold resumed
 * elsewhere): retried when the keeper's renewals win both of its tries. Its lease versions after.
 */
export async function renewElsewhere(probe: EdgelockClient, hold: KeepableHold) {
  const other = probe.resumeHold(hold);
  for (let tries = 1; ; tries++) {
    try {
      await other.extend(LEASE_MS);
      return other.toJSON();
    } catch (error) {
      if (tries === 5 || (error as { code?: string }).code !== "BACKEND") throw error;
    }
  }
}
