import { Redis } from "@upstash/redis";
import { harness, keyPrefix } from "@edgelock/testkit";
import { describe, expect, it } from "vitest";
import {
  createClient,
  resolveBackend,
  type Backend,
  type EdgelockClient,
  type LockEvent,
} from "../src/index.ts";
import { TransportError } from "../src/backend/backend.ts";
import { grantSubscribe, KEEP_MS, LINGER_MS } from "../src/wait/shared-grant-stream.ts";

/**
 * Redisson's concurrency test shape (16 clients × 3 loops of 10 ms on one permit), ported to every
 * queued primitive over REST: each client's waiters listen for their grant on the channel it is
 * published on. The Semaphore and PermitExpirableSemaphore waiters listened to nothing and learnt
 * of a grant on a backoff poll of up to 2 s: 32–44 s and 50–60 s, where the Lock took 0.8–1.0 s.
 */
const CLIENTS = 16;
const LOOPS = 3;
const SECTION_MS = 10;
/** "A few seconds", with room for this machine's load; polling alone took 32 s and more. */
const BOUND_MS = 8_000;

interface Shape {
  readonly label: string;
  /** Prepares the name (permits of a semaphore), once. */
  setUp?(client: EdgelockClient, name: string): Promise<unknown>;
  /** Enters the section; resolves to its exit. */
  enter(client: EdgelockClient, name: string): Promise<() => Promise<unknown>>;
}

const WAIT = { waitMs: 60_000 };

const SHAPES: readonly Shape[] = [
  {
    label: "Lock",
    enter: async (c, n) => {
      const held = await c.lock(n).acquire(WAIT);
      return () => held.release();
    },
  },
  {
    label: "FairLock",
    enter: async (c, n) => {
      const held = await c.fairLock(n).acquire(WAIT);
      return () => held.release();
    },
  },
  {
    label: "ReadWriteLock write side",
    enter: async (c, n) => {
      const held = await c.readWriteLock(n).write.acquire(WAIT);
      return () => held.release();
    },
  },
  {
    label: "Semaphore",
    setUp: (c, n) => c.semaphore(n).trySetPermits(1),
    enter: async (c, n) => {
      const hold = await c.semaphore(n).acquire(WAIT);
      return () => hold.release();
    },
  },
  {
    label: "PermitExpirableSemaphore",
    setUp: (c, n) => c.permitExpirableSemaphore(n).trySetPermits(1),
    enter: async (c, n) => {
      const permit = await c.permitExpirableSemaphore(n).acquire(WAIT);
      return () => permit.release();
    },
  },
];

/**
 * Wraps a backend to count the push streams open at once (and the most ever open); with
 * `liveAfterMs`, each stream reaches the server (and goes live) that much later, as over a slow
 * network: what is published meanwhile never reaches it.
 */
function streamGauge(inner: Backend, liveAfterMs = 0) {
  const gauge = { open: 0, most: 0, opened: 0 };
  const counted = <A extends unknown[]>(
    open: ((...a: A) => AsyncIterable<string>) | undefined,
  ): ((...a: A) => AsyncIterable<string>) | undefined =>
    open &&
    async function* (...a: A) {
      gauge.opened++;
      gauge.most = Math.max(gauge.most, ++gauge.open);
      try {
        if (liveAfterMs > 0) await new Promise((r) => setTimeout(r, liveAfterMs));
        yield* open(...a);
      } finally {
        gauge.open--;
      }
    };
  const backend: Backend = {
    kind: inner.kind,
    command: (args, signal) => inner.command(args, signal),
  };
  const subscribe = counted(inner.subscribe?.bind(inner));
  const psubscribe = counted(inner.psubscribe?.bind(inner));
  if (subscribe) Object.assign(backend, { subscribe });
  if (psubscribe) Object.assign(backend, { psubscribe });
  return { backend, gauge };
}

function restBackend(): Backend {
  const env = harness();
  return resolveBackend(new Redis({ url: env.restUrl, token: env.restToken }));
}

describe(`${CLIENTS} clients × ${LOOPS} loops of ${SECTION_MS} ms on one permit (REST, push)`, () => {
  for (const shape of SHAPES) {
    it(
      `${shape.label}: completes within ${BOUND_MS} ms, one at a time`,
      {
        timeout: 90_000,
      },
      async () => {
        const prefix = keyPrefix();
        const name = "stampede";
        const gauges = Array.from({ length: CLIENTS }, () => streamGauge(restBackend()));
        const clients = gauges.map(({ backend }) => createClient({ redis: backend, prefix }));
        await shape.setUp?.(clients[0]!, name);
        let inside = 0;
        let most = 0;
        let sections = 0;
        const start = Date.now();
        await Promise.all(
          clients.map(async (client) => {
            for (let loop = 0; loop < LOOPS; loop++) {
              const exit = await shape.enter(client, name);
              most = Math.max(most, ++inside);
              await new Promise((r) => setTimeout(r, SECTION_MS));
              inside--;
              sections++;
              await exit();
            }
          }),
        );
        const elapsed = Date.now() - start;
        expect(sections).toBe(CLIENTS * LOOPS);
        expect(most, "holders at once").toBe(1);
        expect(elapsed, `${shape.label} took ${elapsed} ms`).toBeLessThan(BOUND_MS);
        // Waiters did listen (not only poll), and no client ever had two streams open.
        expect(gauges.reduce((n, g) => n + g.gauge.opened, 0)).toBeGreaterThan(0);
        expect(Math.max(...gauges.map((g) => g.gauge.most))).toBe(1);
      },
    );
  }
});

describe("one client's waiters on one name share one stream", () => {
  it(
    "8 waiters of one client on a Semaphore open one stream, each still granted in turn",
    {
      timeout: 60_000,
    },
    async () => {
      const { backend, gauge } = streamGauge(restBackend());
      const client = createClient({ redis: backend, prefix: keyPrefix() });
      const sem = client.semaphore("shared-stream");
      await sem.trySetPermits(1);
      const first = await sem.acquire();
      let granted = 0;
      const waiters = Array.from({ length: 8 }, async () => {
        const hold = await sem.acquire({ waitMs: 30_000 });
        granted++;
        await hold.release();
      });
      // Hold until every waiter has queued and listens (the stream is open), then let them through.
      const until = Date.now() + 10_000;
      while (gauge.open === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
      expect(gauge.open).toBe(1);
      await first.release();
      await Promise.all(waiters);
      expect(granted).toBe(8);
      expect(gauge.most).toBe(1);
    },
  );
});

describe("a backend that refuses the shared stream", () => {
  it(
    "its waiters poll instead, and every one is still granted in turn",
    {
      timeout: 60_000,
    },
    async () => {
      const inner = restBackend();
      let refused = 0;
      const backend: Backend = {
        kind: inner.kind,
        command: (args, signal) => inner.command(args, signal),
        // eslint-disable-next-line require-yield
        async *psubscribe() {
          refused++;
          throw new TransportError("psubscribe: HTTP 404", { ambiguous: false, status: 404 });
        },
      };
      const client = createClient({ redis: backend, prefix: keyPrefix() });
      const sem = client.permitExpirableSemaphore("refused-stream");
      await sem.trySetPermits(1);
      const first = await sem.acquire();
      let granted = 0;
      const waiters = Array.from({ length: 4 }, async () => {
        const permit = await sem.acquire({ waitMs: 30_000 });
        granted++;
        await permit.release();
      });
      while (refused === 0) await new Promise((r) => setTimeout(r, 10));
      await first.release();
      await Promise.all(waiters);
      expect(granted).toBe(4);
    },
  );
});

describe("readers behind a writer are woken by its release (REST, push)", () => {
  it(
    "8 readers, each its own client, enter within 250 ms of the writer's release",
    {
      timeout: 60_000,
    },
    async () => {
      const prefix = keyPrefix();
      const name = "readers-woken";
      const clients = Array.from({ length: 9 }, () =>
        createClient({ redis: restBackend(), prefix }),
      );
      const writer = await clients[0]!.readWriteLock(name).write.acquire();
      let releasedAt = Infinity;
      const readers = clients.slice(1).map(async (client) => {
        const held = await client.readWriteLock(name).read.acquire({ waitMs: 30_000 });
        const lateness = Date.now() - releasedAt;
        await held.release();
        return lateness;
      });
      // Long enough that a polling reader on a fresh name (no hold statistics) backs off to
      // sleeps of a second and more; a woken one enters about one round trip after the release.
      await new Promise((r) => setTimeout(r, 1_500));
      releasedAt = Date.now();
      await writer.release();
      const lateness = await Promise.all(readers);
      expect(Math.min(...lateness), "no reader entered before the release").toBeGreaterThanOrEqual(
        0,
      );
      expect(Math.max(...lateness)).toBeLessThan(250);
    },
  );
});

describe("a client's stream on a name outlives its last waiter a while (LINGER_MS)", () => {
  const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

  it("a second wait soon after the first reuses the stream; it closes LINGER_MS after the last", async () => {
    const { backend, gauge } = streamGauge(restBackend());
    const client = createClient({ redis: backend, prefix: keyPrefix() });
    const s = client.permitExpirableSemaphore("linger");
    await s.trySetPermits(1);
    for (let round = 0; round < 2; round++) {
      const holder = await s.acquire({ leaseMs: 10_000 });
      const waiting = s.acquire({ leaseMs: 10_000, waitMs: 10_000 });
      const until = Date.now() + 5_000;
      while (gauge.open === 0 && Date.now() < until) await pause(5);
      await pause(100);
      await holder.release();
      await (await waiting).release();
    }
    expect(gauge.opened).toBe(1);
    expect(gauge.open).toBe(1); // lingering
    await pause(LINGER_MS + 300);
    expect(gauge.open).toBe(0);
  });

  it("a grant published on a live stream before its waiter listens reaches it; an old one does not", async () => {
    const backend = restBackend();
    const prefix = `${keyPrefix()}:chan:`;
    const subscribe = grantSubscribe(backend, prefix)!;
    const control = new AbortController();
    // One waiter listens, so the stream is live; the grants below are for others.
    const first = subscribe(`${prefix}first`, control.signal)[Symbol.asyncIterator]();
    expect((await first.next()).value).toBe(`subscribe,${prefix}first,1`);
    const publish = (channel: string, payload: string) =>
      backend.command(["PUBLISH", channel, payload], control.signal);
    await publish(`${prefix}old`, "1");
    await pause(KEEP_MS + 200);
    await publish(`${prefix}soon`, "2");
    await pause(100); // on the stream, nobody listening on `soon` yet
    const late = (channel: string) => subscribe(channel, control.signal)[Symbol.asyncIterator]();
    const soon = late(`${prefix}soon`);
    expect((await soon.next()).value).toBe(`subscribe,${prefix}soon,1`);
    expect((await soon.next()).value).toBe(`message,${prefix}soon,2`);
    const old = late(`${prefix}old`);
    expect((await old.next()).value).toBe(`subscribe,${prefix}old,1`);
    const next = old.next();
    const nothing = await Promise.race([next, pause(300).then(() => "nothing")]);
    expect(nothing).toBe("nothing"); // kept no longer than KEEP_MS
    control.abort();
  });
});

describe("the head of the queue listens where it costs nothing or repays itself", () => {
  const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

  it("a head whose new stream goes live after its grant was made asks once when live, not at the safety poll", async () => {
    const prefix = keyPrefix();
    const holderClient = createClient({ redis: restBackend(), prefix });
    const { backend, gauge } = streamGauge(restBackend(), 300);
    const events: LockEvent[] = [];
    const client = createClient({ redis: backend, prefix, onEvent: (e) => events.push(e) });
    await holderClient.semaphore("gap").trySetPermits(1);
    const holder = await holderClient.semaphore("gap").acquire();
    const waiting = client.semaphore("gap").acquire({ waitMs: 10_000 });
    while (!events.some((e) => e.type === "waited")) await pause(2);
    // The head (a semaphore's listens from its first busy answer) opened its stream, which goes
    // live 300 ms from now: the grant of this release is published before anyone hears it.
    await holder.release();
    const released = Date.now();
    const hold = await waiting;
    const took = Date.now() - released;
    // Asked again when the stream went live (about 300 ms), not at its safety poll (~1.9 s).
    expect(took, `took ${took} ms`).toBeLessThan(1_000);
    expect(events.find((e) => e.type === "acquired")).toMatchObject({ attempts: 2 });
    expect(gauge.opened).toBe(1);
    await hold.release();
  });

  // Two permits released at once grant the first two waiters: the second, too, may be granted
  // before its new stream is live. Found by the family bench (PermitExpirableSemaphore, N = 16:
  // 0.56-0.60 in 4 of 8 runs, a waiter at position 2 waiting 1.96-1.99 s for its safety poll).
  for (const kind of ["Semaphore", "PermitExpirableSemaphore"] as const) {
    it(`${kind}: the second waiter, granted by the second permit before its new stream went live, asks once when live`, async () => {
      const prefix = keyPrefix();
      const holderClient = createClient({ redis: restBackend(), prefix });
      const events: LockEvent[][] = [[], []];
      const waiters = events.map((sink) =>
        createClient({
          redis: streamGauge(restBackend(), 300).backend,
          prefix,
          onEvent: (e) => sink.push(e),
        }),
      );
      const one = (c: EdgelockClient) =>
        kind === "Semaphore"
          ? c.semaphore("pair").acquire({ waitMs: 10_000 })
          : c.permitExpirableSemaphore("pair").acquire({ waitMs: 10_000 });
      if (kind === "Semaphore") await holderClient.semaphore("pair").trySetPermits(2);
      else await holderClient.permitExpirableSemaphore("pair").trySetPermits(2);
      const holds = [await one(holderClient), await one(holderClient)];
      // Queued in order: the first at position 1, the second at 2, each opening its stream.
      const waiting = [];
      for (const [i, w] of waiters.entries()) {
        waiting.push(one(w));
        while (!events[i]!.some((e) => e.type === "waited")) await pause(2);
      }
      expect(events.map((sink) => sink.find((e) => e.type === "waited"))).toMatchObject([
        { position: 1 },
        { position: 2 },
      ]);
      // Both grants are published now, 300 ms before either stream is live.
      await Promise.all(holds.map((h) => h.release()));
      const released = Date.now();
      const took = await Promise.all(
        waiting.map(async (w) => {
          const hold = await w;
          const ms = Date.now() - released;
          await hold.release();
          return ms;
        }),
      );
      // Each asked again when its stream went live (about 300 ms), not at its safety poll (~1.9 s).
      for (const ms of took) expect(ms, `took ${took.join(", ")} ms`).toBeLessThan(1_000);
      for (const sink of events)
        expect(sink.find((e) => e.type === "acquired")).toMatchObject({ attempts: 2 });
    });
  }

  it("a looping client's head listens: it polls on its first wait, opens its stream on the next, and then enters on its grant", async () => {
    const prefix = keyPrefix();
    const holder = createClient({ redis: restBackend(), prefix }).lock("loop");
    const { backend, gauge } = streamGauge(restBackend());
    const events: LockEvent[] = [];
    const client = createClient({ redis: backend, prefix, onEvent: (e) => events.push(e) });
    const waiter = client.lock("loop");
    /** The holder holds 200 ms while `waiter` waits behind it; the waiter's acquire's attempts. */
    const round = async (w: typeof waiter) => {
      const held = await holder.acquire({ leaseMs: 10_000 });
      const waited = events.filter((e) => e.type === "waited").length;
      const waiting = w.acquire({ leaseMs: 10_000, waitMs: 5_000 });
      while (events.filter((e) => e.type === "waited").length === waited) await pause(2);
      await pause(200);
      await held.release();
      await (await waiting).release();
      return events.filter((e) => e.type === "acquired").at(-1);
    };
    // The name's hold statistics come from a release a waiter was handed, so the head polls
    // just in time by default: one such cycle by another client first.
    const other = createClient({ redis: restBackend(), prefix, onEvent: (e) => events.push(e) });
    await round(other.lock("loop"));
    expect(gauge.opened).toBe(0);
    const first = await round(waiter); // a fresh client: the head polls, no stream
    expect(gauge.opened).toBe(0);
    expect(first).toMatchObject({ attempts: expect.any(Number) });
    expect((first as { attempts: number }).attempts).toBeGreaterThanOrEqual(2);
    await round(waiter); // a loop: the head opens its stream
    expect(gauge.opened).toBe(1);
    const third = await round(waiter); // the stream lingered: the head joins it, enters on the grant
    expect(third).toMatchObject({ attempts: 1 });
    expect(gauge.opened).toBe(1);
  });
});
