import { keyPrefix } from "@edgelock/testkit";
import { describe, expect, it } from "vitest";
import {
  createClient,
  justInTimeStrategy,
  TransportError,
  type Backend,
  type LockEvent,
} from "../src/index.ts";
import { testSeams } from "../src/test-seams.ts";
import { restBackend, tapBackend } from "./rest-backend.ts";

/**
 * A grant message can come late like any answer (a slow edge, a buffering proxy). A waiter that
 * enters on it counts the grant from the attempt it sent before the grant was made, never from
 * the message's arrival: the grant lapses at the server a claim window after it was made, and
 * what arrives late has less of it left. Here the message comes 1.2 s into a 2 s window (a
 * FairLock's reservation is longer), and the waiter's requests fail from then on, so its claim never lands: the holder must learn it lost
 * the hold (its signal aborts) before anyone else is let in. Counted from the message's arrival
 * (the `pushedGrantFromArrival` seam), the holder still believes while the next one holds: the
 * last cases show the scenario catches that, for every kind.
 */
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

const LATE_MS = 1_200;

/**
 * The REST backend, push included, whose messages arrive `LATE_MS` after the first was sent; once
 * they have arrived, every request fails unsent (the waiter is cut off from Redis, its stream not).
 */
function lateThenCutOff() {
  const inner = restBackend();
  const state: { cut: boolean; sent: number; gate?: Promise<void> } = { cut: false, sent: 0 };
  const backend = tapBackend(inner, (args, signal) => {
    state.sent++;
    if (state.cut)
      return Promise.reject(
        new TransportError("cut off (test)", { ambiguous: false, status: 503 }),
      );
    return inner.command(args, signal);
  });
  const late = (lines: AsyncIterable<string>) =>
    (async function* () {
      for await (const line of lines) {
        if (line.startsWith("message,") || line.startsWith("pmessage,")) {
          // One delay for every message of the release, on every stream: a MultiLock's grants
          // (one per name, each on its own stream) then arrive together, as they were sent. Each
          // stream timing its own delay let them drift apart under load, past the moments the
          // waiter gives a partner's message before it asks instead (and is cut off).
          state.gate ??= pause(LATE_MS).then(() => {
            state.cut = true;
          });
          await state.gate;
        }
        yield line;
      }
    })();
  const { subscribe, psubscribe } = inner;
  if (subscribe) backend.subscribe = (c, s) => late(subscribe.call(inner, c, s));
  if (psubscribe) backend.psubscribe = (p, s) => late(psubscribe.call(inner, p, s));
  return { backend: backend as Backend, state };
}

type Client = ReturnType<typeof createClient>;
interface Hold {
  readonly signal?: AbortSignal | undefined;
  release(): Promise<unknown>;
}
interface Waits {
  acquire(options: { waitMs: number; leaseMs?: number }): Promise<Hold>;
}

/** Each kind whose waiter enters on a pushed grant, on one name of one permit. */
const KINDS: readonly {
  readonly kind: string;
  readonly of: (c: Client, name: string) => Waits;
  readonly setUp?: (c: Client, name: string) => Promise<unknown>;
}[] = [
  { kind: "Lock", of: (c, name) => c.lock(name) },
  { kind: "FairLock", of: (c, name) => c.fairLock(name) },
  { kind: "ReadWriteLock write side", of: (c, name) => c.readWriteLock(name).write },
  {
    kind: "PermitExpirableSemaphore",
    of: (c, name) => c.permitExpirableSemaphore(name),
    setUp: (c, name) => c.permitExpirableSemaphore(name).trySetPermits(1),
  },
  {
    kind: "Semaphore",
    of: (c, name) => c.semaphore(name),
    setUp: (c, name) => c.semaphore(name).trySetPermits(1),
  },
  { kind: "MultiLock", of: (c, name) => c.multiLock([`${name}a`, `${name}b`]) },
];

/**
 * The scenario: a holder on one name, a waiter behind it whose messages come late and who is cut
 * off once one arrives, and a third client asking after the release. Resolves to whether the
 * waiter's signal had aborted when the third got in.
 */
async function toldBeforeTheNext({ of, setUp }: (typeof KINDS)[number]): Promise<boolean> {
  const prefix = keyPrefix();
  const holder = createClient({ redis: restBackend(), prefix });
  // The next one polls at least every 100 ms: it gets in right after the grant lapses, well
  // inside the 1.2 s a holder counting from the message's arrival would still believe.
  const next = createClient({
    redis: restBackend(),
    prefix,
    wait: justInTimeStrategy({ maxMs: 100 }),
  });
  const { backend, state } = lateThenCutOff();
  const events: LockEvent[] = [];
  const waiter = createClient({ redis: backend, prefix, onEvent: (e) => events.push(e) });
  await setUp?.(holder, "lg");
  const blocker = await of(holder, "lg").acquire({ leaseMs: 20_000, waitMs: 0 });
  const waiting = of(waiter, "lg").acquire({ leaseMs: 20_000, waitMs: 10_000 });
  while (!events.some((e) => e.type === "waited")) await pause(2);
  await pause(300); // its stream is live, and it asked once more
  const sentBefore = state.sent;
  await blocker.release();
  const held = await waiting;
  // It entered on the message: no request of its own since the release.
  expect(state.sent - sentBefore).toBe(0);
  expect(held.signal?.aborted).toBe(false);
  // A FairLock's or a write side's grant is reserved until its head's declared poll deadline
  // (a sleep and the 5 s request timeout: about 7 s here), not the claim window.
  const nextHold = await of(next, "lg").acquire({ leaseMs: 20_000, waitMs: 8_000 });
  const told = held.signal?.aborted === true;
  // Its claim (sent in the background) failed, and it was told so.
  expect(events.some((e) => e.type === "renew-failed")).toBe(true);
  await nextHold.release();
  return told;
}

describe("a grant message that comes late is counted from the attempt before it (REST)", () => {
  it.each(KINDS)(
    "$kind: its claim lost, the holder is told before the next one gets in",
    async (kind) => {
      expect(await toldBeforeTheNext(kind), "the waiter still believed it held").toBe(true);
    },
  );

  it.each(KINDS)(
    "$kind: counted from its arrival instead, the scenario catches it",
    async (kind) => {
      testSeams.pushedGrantFromArrival = true;
      try {
        expect(await toldBeforeTheNext(kind)).toBe(false);
      } finally {
        testSeams.pushedGrantFromArrival = false;
      }
    },
  );
});
