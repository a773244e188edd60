import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { harness } from "@edgelock/testkit";
import { beforeAll, describe, expect, it } from "vitest";
import {
  BackendError,
  createClient,
  InvalidArgumentError,
  KeeperError,
  LeaseLostError,
  quorumLock,
  timerKeeper,
  TransportError,
  type Backend,
  type EdgelockClient,
  type Keeper,
  type LockEvent,
} from "../src/index.ts";
import { extendScript } from "../src/lock/scripts.generated.ts";
import { useFaultStack } from "./fault-stack.ts";
import { switchableBackend } from "./quorum-backends.ts";
import { restBackend } from "./rest-backend.ts";
import { aborted, delay } from "./support.ts";

const LEASE_MS = 300;

const client = (
  keeper: Keeper,
  prefix = `k${Math.random().toString(36).slice(2)}`,
  leaseMs = LEASE_MS,
) =>
  createClient({
    redis: { url: harness().restUrl, token: harness().restToken },
    prefix,
    leaseMs,
    keeper,
  });

const keepers: Record<string, () => Keeper> = {
  "throws in keep()": () => ({
    keep() {
      throw new Error("keeper down");
    },
  }),
  "returns a rejected promise (async keep)": () => ({
    // An async keeper, though keep() is typed void: what a user may well write.
    // eslint-disable-next-line @typescript-eslint/no-misused-promises
    async keep() {
      throw new Error("keeper down");
    },
  }),
};

/** Each primitive with a kept-alive lease: how to take it, and whether it is still taken. */
const primitives: Record<
  string,
  (c: EdgelockClient) => { take(): Promise<unknown>; taken(): Promise<boolean> }
> = {
  Lock: (c) => ({ take: () => c.lock("l").acquire(), taken: () => c.lock("l").isLocked() }),
  FairLock: (c) => ({
    take: () => c.fairLock("f").acquire(),
    taken: () => c.fairLock("f").isLocked(),
  }),
  "ReadWriteLock write": (c) => ({
    take: () => c.readWriteLock("rw").write.acquire(),
    taken: () => c.readWriteLock("rw").write.isLocked(),
  }),
  "ReadWriteLock read": (c) => ({
    take: () => c.readWriteLock("rw").read.acquire(),
    taken: () => c.readWriteLock("rw").read.isLocked(),
  }),
  MultiLock: (c) => ({
    take: () => c.multiLock(["m1", "m2"]).acquire(),
    taken: async () => (await c.lock("m1").isLocked()) || (await c.lock("m2").isLocked()),
  }),
  PermitExpirableSemaphore: (c) => ({
    take: async () => {
      await c.permitExpirableSemaphore("p").trySetPermits(1);
      return c.permitExpirableSemaphore("p").acquire();
    },
    taken: async () => (await c.permitExpirableSemaphore("p").availablePermits()) === 0,
  }),
};

describe("a keeper that fails when handed a new hold", () => {
  for (const [how, makeKeeper] of Object.entries(keepers)) {
    for (const [kind, primitive] of Object.entries(primitives)) {
      it(`${kind}, keeper ${how}: the acquire fails with KeeperError and the lock is free at once`, async () => {
        const p = primitive(client(makeKeeper()));
        const error = await p.take().catch((e: unknown) => e);
        expect(error).toBeInstanceOf(KeeperError);
        expect((error as KeeperError).released).toBe(true);
        expect(((error as KeeperError).cause as Error).message).toBe("keeper down");
        expect(await p.taken()).toBe(false);
        // Past the lease: nothing left over fires (it used to crash Node with a ReferenceError).
        await delay(LEASE_MS + 100);
      });
    }

    it(`quorum lock, keeper ${how}: the acquire fails with KeeperError, nothing is left held`, async () => {
      const prefix = `kq${Math.random().toString(36).slice(2)}`;
      // A quorum's request timeout is a fraction of its lease: a lease that leaves it room.
      const clients = [1, 2, 3].map((i) => client(makeKeeper(), `${prefix}${i}`, 5_000));
      const lock = quorumLock(clients, "q");
      const error = await lock.acquire().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(KeeperError);
      expect((error as KeeperError).released).toBe(true);
      const again = await quorumLock(clients, "q").acquire({ leaseMs: 1_000 });
      await again.release();
    });
  }

  it("a keeper whose promise rejects after it took the hold: the lease is lost at once, not at its deadline", async () => {
    const c = createClient({
      redis: { url: harness().restUrl, token: harness().restToken },
      prefix: `kl${Math.random().toString(36).slice(2)}`,
      keeper: {
        // eslint-disable-next-line @typescript-eslint/no-misused-promises -- a keeper whose promise rejects later
        keep: () => delay(50).then(() => Promise.reject(new Error("keeper died"))),
      },
    });
    const held = await c.lock("late").acquire();
    const reason = (await aborted(held.signal, 1_000)) as LeaseLostError;
    expect(reason).toBeInstanceOf(LeaseLostError);
    expect(reason.reason).toBe("keeper-failed");
    expect((reason.cause as Error).message).toBe("keeper died");
    await held[Symbol.asyncDispose]();
  });

  it("a re-entry shares the first hold's keeper: keep() runs once per acquisition", async () => {
    const inner = timerKeeper();
    let kept = 0;
    const c = client({
      keep(task) {
        kept++;
        inner.keep(task);
      },
    });
    const lock = c.lock("reentry");
    const outer = await lock.acquire();
    const inner2 = await lock.acquire();
    expect(kept).toBe(1);
    await inner2.release();
    await outer.release();
  });
});

describe("createClient validates keeper and wait", () => {
  const argumentOf = (options: Record<string, unknown>) => {
    try {
      createClient({ redis: { url: "http://127.0.0.1:1", token: "t" }, ...options });
      return "no error";
    } catch (e) {
      expect(e).toBeInstanceOf(InvalidArgumentError);
      return (e as InvalidArgumentError).argument;
    }
  };

  it("names the option", () => {
    expect(argumentOf({ keeper: {} })).toBe("options.keeper");
    expect(argumentOf({ keeper: { keep: 1 } })).toBe("options.keeper");
    expect(argumentOf({ keeper: null })).toBe("options.keeper");
    expect(argumentOf({ keeper: () => undefined })).toBe("options.keeper");
    expect(argumentOf({ wait: {} })).toBe("options.wait");
    expect(argumentOf({ wait: { nextDelay: () => 1, maxDelayMs: -1 } })).toBe(
      "options.wait.maxDelayMs",
    );
    expect(argumentOf({ keeper: timerKeeper() })).toBe("no error");
  });
});

describe("renewals stop at once when the lease is lost", () => {
  const { stack } = useFaultStack();
  let dir: string;
  beforeAll(() => {
    mkdirSync(join(import.meta.dirname, "../.tmp"), { recursive: true });
    dir = mkdtempSync(join(import.meta.dirname, "../.tmp/keeper-"));
  });

  // A holder whose renewal hangs: the lease is lost at its local deadline, and nothing of the
  // hold may keep the process alive after that (a renewal still waiting for its answer, retries).
  const holder = `
import { createClient } from ${JSON.stringify(join(import.meta.dirname, "../src/index.ts"))};
const client = createClient({
  redis: { url: process.env.URL, token: process.env.TOKEN },
  prefix: process.env.PREFIX,
  leaseMs: 600,
});
const held = await client.lock("hang").acquire();
console.log("held");
held.signal.addEventListener("abort", () => console.log("lost", Date.now(), held.signal.reason.reason));
`;

  it("a renewal still waiting for its answer is cancelled: the process exits right after the loss", async () => {
    const file = join(dir, "holder.mts");
    writeFileSync(file, holder);
    await stack().faults.add({ kind: "hang", times: 1_000, match: extendScript.sha });
    const tsx = join(import.meta.dirname, "../../../node_modules/.bin/tsx");
    const env = {
      ...process.env,
      URL: stack().rest.url,
      TOKEN: stack().rest.token,
      PREFIX: `hang${Date.now()}`,
    };
    const { out, exitedAt } = await new Promise<{ out: string; exitedAt: number }>(
      (resolve, reject) => {
        execFile(tsx, [file], { env, timeout: 20_000 }, (error, stdout) =>
          error ? reject(error) : resolve({ out: stdout, exitedAt: Date.now() }),
        );
      },
    );
    const lines = out.trim().split("\n");
    expect(lines[0]).toBe("held");
    const [word, lostAt, reason] = lines[1]!.split(" ");
    expect([word, reason]).toEqual(["lost", "deadline"]);
    // It used to live on for the hung renewal's request timeout (5 s) and its retries.
    expect(exitedAt - Number(lostAt)).toBeLessThan(1_500);
  });
});

/** A client on `backend` whose 900 ms leases its keeper renews every 300 ms, and its events. */
function renewedEvery300Ms(backend: Backend) {
  const events: LockEvent[] = [];
  const c = createClient({
    redis: backend,
    prefix: `k${Math.random().toString(36).slice(2)}`,
    leaseMs: 900,
    onEvent: (e) => events.push(e),
  });
  return { c, events };
}

/**
 * `inner`, switchable: while `down`, requests are refused unsent; while `hang`, a request
 * (`hangs` says which: every one by default) answers only when cancelled (`hung` counts them).
 */
function hangingBackend(
  inner: Backend,
  hangs: (args: Parameters<Backend["command"]>[0]) => boolean = () => true,
) {
  const mode = { hang: false, down: false, hung: 0 };
  const backend: Backend = {
    kind: inner.kind,
    command(args, signal) {
      if (mode.down)
        return Promise.reject(
          new TransportError("connection refused (test)", { ambiguous: false }),
        );
      if (!mode.hang || !hangs(args)) return inner.command(args, signal);
      mode.hung++;
      return new Promise((_, reject) =>
        signal?.addEventListener("abort", () =>
          reject(new TransportError("cancelled (test)", { ambiguous: true })),
        ),
      );
    },
  };
  return { backend, mode };
}

describe("work that fails in the background is told", () => {
  it("cut off from Redis for a moment: renew-failed for each failed renewal, and the hold lives on", async () => {
    const { backend, setDown } = switchableBackend(restBackend());
    const { c, events } = renewedEvery300Ms(backend);
    const held = await c.lock("rf").acquire();
    await delay(350); // one renewal landed (every 300 ms)
    setDown(true); // connection refused: never sent, so nothing is retried or in doubt
    await delay(300);
    setDown(false);
    await delay(400);
    const failed = events.filter((e) => e.type === "renew-failed");
    expect(failed.length).toBeGreaterThan(0);
    expect(failed[0]).toMatchObject({ name: "rf", fence: held.fence });
    expect((failed[0] as { error: Error }).error.message).toMatch(/connection refused/);
    expect(events.filter((e) => e.type === "retried")).toEqual([]);
    expect(held.signal.aborted).toBe(false);
    await held.release();
  });

  it("a renewal that fails after its lease ran out is told too: lost (deadline), then renew-failed", async () => {
    const inner = restBackend();
    let slow = false;
    // Once slow, a request hangs past the lease's end and then fails unsent: the renewal on its
    // way when the lease runs out fails only afterwards.
    const backend: Backend = {
      kind: inner.kind,
      async command(args, signal) {
        if (!slow) return inner.command(args, signal);
        await delay(1_500);
        throw new TransportError("connection reset (test)", { ambiguous: false });
      },
    };
    const { c, events } = renewedEvery300Ms(backend);
    const held = await c.lock("rl").acquire();
    await delay(350); // one renewal landed (every 300 ms)
    slow = true;
    await aborted(held.signal, 3_000);
    const until = Date.now() + 3_000;
    while (!events.some((e) => e.type === "renew-failed") && Date.now() < until) await delay(20);
    const kinds = events.map((e) => e.type).filter((t) => t === "lost" || t === "renew-failed");
    expect(kinds.slice(0, 2)).toEqual(["lost", "renew-failed"]);
    const failed = events.find((e) => e.type === "renew-failed");
    expect(failed).toMatchObject({ name: "rl", fence: held.fence });
    expect((failed as { error: Error }).error.message).toMatch(/connection reset/);
    slow = false;
    await c.settled();
  });

  it("a renewal that fails while its holder starts the release is told: it failed on its own, it was not cancelled", async () => {
    const inner = restBackend();
    let release: (() => Promise<void>) | undefined;
    let released: Promise<void> | undefined;
    // The first renewal fails unsent (connection refused) just as the holder calls release():
    // the failure reaches the keeper with the hold already ending (what the fault campaign met
    // at 1607499 when a cut-off refused a renewal and the section's own release together).
    const backend: Backend = {
      kind: inner.kind,
      command(args, signal) {
        if (release === undefined || args[1] !== extendScript.sha)
          return inner.command(args, signal);
        const releasing = (released = release());
        release = undefined;
        // Refused at once, but the refusal reaches the engine after the release has landed.
        const refused = new TransportError("connection refused (test)", { ambiguous: false });
        return releasing.then(() => Promise.reject(refused));
      },
    };
    const { c, events } = renewedEvery300Ms(backend);
    const held = await c.lock("rr").acquire();
    release = () => held.release();
    const until = Date.now() + 3_000;
    while (released === undefined && Date.now() < until) await delay(20);
    await released;
    await c.settled();
    // The refusal reaches the keeper after the release: wait for it (the old rule never told it).
    while (!events.some((e) => e.type === "renew-failed") && Date.now() < until) await delay(20);
    await delay(100); // and no second one comes
    const failed = events.filter((e) => e.type === "renew-failed");
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ name: "rr", fence: held.fence });
    expect((failed[0] as { error: Error }).error.message).toMatch(/connection refused/);
    expect(await c.lock("rr").isLocked()).toBe(false);
  });

  it("a renewal cancelled because its holder released is not a failure to tell: released only", async () => {
    const { backend, mode } = hangingBackend(restBackend(), (args) => args[1] === extendScript.sha);
    const { c, events } = renewedEvery300Ms(backend);
    const held = await c.lock("rh").acquire();
    mode.hang = true;
    const until = Date.now() + 3_000;
    while (mode.hung === 0 && Date.now() < until) await delay(20);
    expect(mode.hung).toBe(1); // a renewal is on its way, and hangs until cancelled
    await held.release();
    await c.settled();
    await delay(200); // the cancelled renewal's error has reached the keeper by now
    expect(mode.hung).toBe(1);
    // Hung from the first renewal on: none was confirmed, and the one cancelled is not told.
    const told = events.map((e) => e.type).filter((t) => /renew|released|lost/.test(t));
    expect(told).toEqual(["released"]);
    expect(await c.lock("rh").isLocked()).toBe(false);
  });

  it("a renewal cancelled because its lease ran out is not a failure to tell: lost only", async () => {
    const { backend, mode } = hangingBackend(restBackend());
    const { c, events } = renewedEvery300Ms(backend);
    const held = await c.lock("rc").acquire();
    await delay(350);
    mode.hang = true;
    await aborted(held.signal, 3_000);
    await delay(300);
    expect(mode.hung).toBeGreaterThan(0); // a renewal was on its way when the lease ran out
    const told = events.map((e) => e.type).filter((t) => t === "lost" || t === "renew-failed");
    expect(told).toEqual(["lost"]);
    mode.hang = false;
  });

  it("a multi-lock across two groups cut off: extend() throws one BackendError carrying both groups' failures", async () => {
    const { backend, setDown } = switchableBackend(restBackend());
    const c = createClient({ redis: backend, prefix: `k${Math.random().toString(36).slice(2)}` });
    const multi = c.multiLock(["ga", "gb"]);
    expect(multi.slotGroups).toBe(2);
    const held = await multi.acquire({ leaseMs: 5_000 });
    setDown(true);
    const error = await held.extend(5_000).catch((e: unknown) => e);
    setDown(false);
    expect(error).toBeInstanceOf(BackendError);
    expect((error as Error).message).toMatch(/1 more group\(s\) failed too/);
    const all = (error as Error).cause as AggregateError;
    expect(all).toBeInstanceOf(AggregateError);
    expect(all.errors).toHaveLength(2);
    for (const e of all.errors) expect(e).toBeInstanceOf(BackendError);
    await held.release();
  });

  it("a wait given up while cut off from Redis: its leave fails, background-failed says so", async () => {
    const prefix = `k${Math.random().toString(36).slice(2)}`;
    const holder = createClient({ redis: restBackend(), prefix });
    const { backend, setDown } = switchableBackend(restBackend());
    const events: LockEvent[] = [];
    const c = createClient({ redis: backend, prefix, onEvent: (e) => events.push(e) });
    const held = await holder.lock("bf").acquire({ leaseMs: 5_000 });
    const stop = new AbortController();
    const waiting = c.lock("bf").acquire({ waitMs: 5_000, signal: stop.signal });
    while (!events.some((e) => e.type === "waited")) await delay(5);
    setDown(true);
    stop.abort();
    await expect(waiting).rejects.toThrow(/aborted/);
    await c.settled();
    setDown(false);
    const failed = events.filter((e) => e.type === "background-failed");
    expect(failed).toHaveLength(1);
    expect((failed[0] as { error: Error }).error.message).toMatch(/abandon.*connection refused/s);
    await held.release();
  });

  it.each([
    {
      kind: "Lock",
      setUp: () => Promise.resolve(),
      take: (c: EdgelockClient, signal?: AbortSignal) =>
        c.lock("bf2").acquire({ leaseMs: 5_000, waitMs: 5_000, ...(signal ? { signal } : {}) }),
    },
    {
      kind: "Semaphore",
      setUp: (c: EdgelockClient) => c.semaphore("bf2").trySetPermits(1),
      take: (c: EdgelockClient, signal?: AbortSignal) =>
        c.semaphore("bf2").acquire({ waitMs: 5_000, ...(signal ? { signal } : {}) }),
    },
  ])(
    "$kind: a wait given up while a poll is in flight abandons that poll once (its undo is also the wait's leave)",
    async ({ setUp, take }) => {
      const prefix = `k${Math.random().toString(36).slice(2)}`;
      const holder = createClient({ redis: restBackend(), prefix });
      const { backend, mode } = hangingBackend(restBackend());
      const events: LockEvent[] = [];
      const c = createClient({ redis: backend, prefix, onEvent: (e) => events.push(e) });
      await setUp(holder);
      const held = await take(holder);
      const stop = new AbortController();
      const waiting = take(c, stop.signal);
      while (!events.some((e) => e.type === "waited")) await delay(5);
      mode.hang = true;
      while (mode.hung === 0) await delay(5); // its next poll is on its way
      mode.down = true;
      stop.abort();
      await expect(waiting).rejects.toThrow(/aborted/);
      await c.settled();
      const failed = events.filter((e) => e.type === "background-failed");
      expect(failed).toHaveLength(1);
      expect((failed[0] as { error: Error }).error.message).toMatch(/abandon.*connection refused/s);
      await held.release();
    },
  );
});
