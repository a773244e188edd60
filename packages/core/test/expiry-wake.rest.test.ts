import { Redis } from "@upstash/redis";
import { harness, keyPrefix } from "@edgelock/testkit";
import { describe, expect, it } from "vitest";
import { createClient, type EdgelockClient, type LockEvent } from "../src/index.ts";

/**
 * "Every sleep is capped by the holder's remaining lease" (docs/performance.md), checked where it
 * used to break: a waiter whose poll lands in a lease's last millisecond. Redis reports PTTL 0 for
 * a key that still lives in that millisecond; a busy answer that passed the 0 through read as
 * "unknown" to the wait loop, nothing capped the sleep, and the waiter slept up to 2 s past the
 * expiry (Lock 12/150 trials, PermitExpirableSemaphore 7/150). Many trials run at once on
 * different names, so some polls land in that millisecond by chance. What is measured is when the
 * waiter planned its last sleep to end (the `waited` event), not when its grant came: on this
 * loaded machine a timer may fire or an answer come 100+ ms late, which no plan could shorten.
 * The plain Semaphore is not here: its permits have no lease, so nothing expires.
 */
const TRIALS = 150;
const LEASE_MS = 1_000;
const LATE_MS = 100;
/** Trials at once: enough that some polls land in a lease's last millisecond. */
const BATCH = 50;

interface Shape {
  readonly label: string;
  /** Takes the name with a fixed lease that nobody renews or releases. */
  hold(client: EdgelockClient, name: string): Promise<unknown>;
  /** Waits for the name; resolves once granted. */
  wait(client: EdgelockClient, name: string): Promise<unknown>;
}

const WAIT = { waitMs: 5_000 };
const LEASE = { leaseMs: LEASE_MS };

const SHAPES: readonly Shape[] = [
  {
    label: "Lock",
    hold: (c, n) => c.lock(n).acquire(LEASE),
    wait: (c, n) => c.lock(n).acquire(WAIT),
  },
  {
    label: "FairLock",
    hold: (c, n) => c.fairLock(n).acquire(LEASE),
    wait: (c, n) => c.fairLock(n).acquire(WAIT),
  },
  {
    label: "ReadWriteLock write side",
    hold: (c, n) => c.readWriteLock(n).write.acquire(LEASE),
    wait: (c, n) => c.readWriteLock(n).write.acquire(WAIT),
  },
  {
    label: "ReadWriteLock read side behind a writer",
    hold: (c, n) => c.readWriteLock(n).write.acquire(LEASE),
    wait: (c, n) => c.readWriteLock(n).read.acquire(WAIT),
  },
  {
    label: "PermitExpirableSemaphore",
    hold: async (c, n) => {
      const s = c.permitExpirableSemaphore(n);
      await s.trySetPermits(1);
      return s.acquire(LEASE);
    },
    wait: (c, n) => c.permitExpirableSemaphore(n).acquire(WAIT),
  },
];

describe("a waiter behind an expiring lease is granted within 100 ms of the expiry (REST)", () => {
  for (const shape of SHAPES) {
    it(`${shape.label}: ${TRIALS} trials`, { timeout: 60_000 }, async () => {
      const env = harness();
      const redis = new Redis({ url: env.restUrl, token: env.restToken });
      const sleeps = new Map<string, { at: number; ms: number }[]>();
      const onEvent = (e: LockEvent) => {
        if (e.type !== "waited") return;
        sleeps.set(e.name, [...(sleeps.get(e.name) ?? []), { at: Date.now(), ms: e.sleepMs }]);
      };
      const client = createClient({ redis, prefix: keyPrefix(), onEvent });
      // Load the scripts first: 150 first attempts at once would all queue behind the loading.
      await shape.hold(client, "expiry-warm-up");
      await shape.wait(client, "expiry-warm-up");
      const trial = async (i: number) => {
        const name = `expiry-${i}`;
        // Staggered starts keep the holds' round trips short and the polls at every phase.
        await new Promise((r) => setTimeout(r, ((i % BATCH) * LEASE_MS) / BATCH));
        const sentAt = Date.now();
        await shape.hold(client, name);
        // The lease started on the server between send and reply, so it ends in this span.
        const [earliest, latest] = [sentAt + LEASE_MS, Date.now() + LEASE_MS];
        await new Promise((r) => setTimeout(r, Math.random() * 100));
        await shape.wait(client, name);
        // The waiter really waited for the expiry: none cut in.
        expect(Date.now()).toBeGreaterThanOrEqual(earliest);
        // How far the last sleep was planned past the expiry (or past when it was planned, if the
        // busy answer came after the expiry): that is the waiter's own doing. A timer firing late
        // on this loaded machine, or a slow answer, are not.
        const last = sleeps.get(name)!.at(-1)!;
        return last.at + last.ms - Math.max(latest, last.at);
      };
      const lateness: number[] = [];
      for (let first = 0; first < TRIALS; first += BATCH) {
        const batch = Array.from({ length: BATCH }, (_, k) => trial(first + k));
        lateness.push(...(await Promise.all(batch)));
      }
      const late = lateness.filter((ms) => ms > LATE_MS).map(Math.round);
      expect(late, `sleeps planned to end late (ms after the expiry)`).toEqual([]);
    });
  }
});
