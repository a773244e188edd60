import { createClient, type EdgelockClient } from "@edgelock/core";
import { env } from "cloudflare:test";

/** A client of the test itself (not the Worker), to look at the lock from outside. */
export function probe(prefix: string): EdgelockClient {
  return createClient({
    redis: { url: env.UPSTASH_REDIS_REST_URL, token: env.UPSTASH_REDIS_REST_TOKEN },
    prefix,
  });
}

export const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Resolves with the reason when `signal` aborts; rejects after `ms` so a test fails instead of hanging. */
export function aborted(signal: AbortSignal, ms: number): Promise<unknown> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return resolve(signal.reason);
    const timer = setTimeout(() => reject(new Error(`signal did not abort within ${ms} ms`)), ms);
    signal.addEventListener("abort", () => {
      clearTimeout(timer);
      resolve(signal.reason);
    });
  });
}

/** Polls `check` until it returns true; fails after `ms`. */
export async function eventually(
  check: () => Promise<boolean> | boolean,
  ms: number,
  what: string,
): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`not within ${ms} ms: ${what}`);
    await delay(25);
  }
}

import type { HeldLock, SerializedLease } from "@edgelock/core";
import { keeperFromEnv, leaseObjectName, type LeaseKeeperClient } from "../../src/index.ts";

export const keeper = (): LeaseKeeperClient => keeperFromEnv(env);

/** A fixed (never renewed locally) lease, so that only the keeper can keep it alive. */
export async function fixedLease(
  prefix: string,
  name: string,
  leaseMs = 600,
): Promise<{ held: HeldLock; lease: SerializedLease }> {
  const held = await probe(prefix).lock(name).acquire({ leaseMs });
  return { held, lease: held.toJSON() };
}

/** The Durable Object that keeps `lease`. */
export async function keeperStub(lease: SerializedLease) {
  return env.LEASE_KEEPER.get(env.LEASE_KEEPER.idFromName(await leaseObjectName(lease)));
}

/** Adds a fault rule on the shared rest-server; rules match on a string unique to the test (an owner id). */
export async function addFault(rule: Record<string, unknown>): Promise<void> {
  const response = await fetch(`${env.UPSTASH_REDIS_REST_URL}/__edgelock/faults`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${env.UPSTASH_REDIS_REST_TOKEN}`,
      "content-type": "application/json",
    },
    body: JSON.stringify(rule),
  });
  if (!response.ok)
    throw new Error(`fault rule refused: ${response.status} ${await response.text()}`);
}
