import { keyPrefix } from "@edgelock/testkit";
import { describe, expect, it } from "vitest";
import { createClient, type Backend, type ClientOptions, type LockEvent } from "../src/index.ts";
import { abandonScript, acquireScript, extendScript } from "../src/lock/scripts.generated.ts";
import { restBackend, tapBackend } from "./rest-backend.ts";

/**
 * A multi-lock across slots whose waiter, queued at its first name, also joins the later names'
 * queues (multi-lock/joins.ts): a release frees every name at once, each is handed to it, and it
 * enters on the grant messages, claiming later as a Lock waiter does. Each test below fails
 * without the joins (the waiter then asks the later name after the first one's message), or
 * without the give-back and leave that keep a join from holding a name it must not.
 */
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The REST backend, push included, counting every request and the Lock's scripts by kind. */
function counting(inner: Backend, slow = { joinAnswerMs: 0 }) {
  const count = { requests: 0, joins: 0, extends: 0, abandons: 0 };
  /** The status each join answered (0 busy: joined or not, never 1 granted nor 2 re-entered). */
  const joinStatuses: number[] = [];
  const is = (args: readonly unknown[], script: { sha: string; source: string }) =>
    args[1] === script.sha || args[1] === script.source;
  const backend = tapBackend(inner, (args, signal) => {
    count.requests++;
    if (is(args, acquireScript)) {
      // EVALSHA sha numkeys key… arg…: the third arg is the acquire's queue mode (2: join only)
      const queue = args[3 + Number(args[2]) + 2];
      if (String(queue) === "2") {
        count.joins++;
        return inner.command(args, signal).then(async (reply) => {
          joinStatuses.push(Number((reply as unknown[])[0]));
          await pause(slow.joinAnswerMs);
          return reply;
        });
      }
    }
    if (is(args, extendScript)) count.extends++;
    if (is(args, abandonScript)) count.abandons++;
    return inner.command(args, signal);
  });
  return { backend, count, joinStatuses };
}

/**
 * `inner` with the grant messages on `name`'s channels held back `ms` (the stream's events after
 * them too, as a slow stream would): a partner's message that does not come within moments.
 */
function slowPushOn(inner: Backend, name: string, ms: number): Backend {
  const late = (events: AsyncIterable<string>) =>
    (async function* () {
      for await (const event of events) {
        if (event.startsWith("pmessage,") || event.startsWith("message,")) await pause(ms);
        yield event;
      }
    })();
  const backend: Backend = {
    kind: inner.kind,
    command: (args, signal) => inner.command(args, signal),
  };
  const on = (channel: string) => channel.includes(`{${name}}`) || channel.includes(`:${name}:`);
  if (inner.subscribe) {
    const subscribe = inner.subscribe.bind(inner);
    backend.subscribe = (channel, signal) =>
      on(channel) ? late(subscribe(channel, signal)) : subscribe(channel, signal);
  }
  if (inner.psubscribe) {
    const psubscribe = inner.psubscribe.bind(inner);
    backend.psubscribe = (pattern, signal) =>
      on(pattern) ? late(psubscribe(pattern, signal)) : psubscribe(pattern, signal);
  }
  return backend;
}

/** A holder's client and a counting waiter's client on one prefix; `other` checks the names. */
function clients(options: Omit<ClientOptions, "redis"> = {}) {
  const prefix = keyPrefix();
  const holderClient = createClient({ redis: restBackend(), prefix, ...options });
  const other = createClient({ redis: restBackend(), prefix, ...options });
  const { backend, count, joinStatuses } = counting(restBackend());
  const events: LockEvent[] = [];
  const client = createClient({
    redis: backend,
    prefix,
    ...options,
    onEvent: (e) => events.push(e),
  });
  /** Resolves once the waiter has been told to wait and its streams and joins have settled. */
  const waiting = async () => {
    while (!events.some((e) => e.type === "waited")) await pause(2);
    await pause(300);
  };
  return { holderClient, other, client, count, joinStatuses, events, waiting };
}

const tryBoth = async (client: ReturnType<typeof createClient>, names: string[]) =>
  client.multiLock(names).tryAcquire();

/** A multi-lock holder on `names`, a waiter behind it that has joined, and the hand-off. */
async function handedOn(names: [string, string], options: Omit<ClientOptions, "redis"> = {}) {
  const c = clients(options);
  // Redis learns the scripts first, so that a claim is one request per name (no NOSCRIPT round).
  const warm = await c.client.multiLock([`${names[0]}:w`, `${names[1]}:w`]).acquire();
  await warm.extend(5_000);
  await warm.release();
  const held = await c.holderClient.multiLock(names).acquire({ leaseMs: 10_000 });
  const multi = c.client.multiLock(names);
  const pending = multi.acquire({ leaseMs: 10_000, waitMs: 10_000 });
  await c.waiting();
  c.count.extends = 0;
  const before = c.count.requests;
  await held.release();
  const hold = await pending;
  return { ...c, multi, hold, afterRelease: c.count.requests - before, joined: held };
}

describe("MultiLock across slots: its waiter joins the later names and enters on their grants (REST)", () => {
  it("enters on both grant messages: no request between the release and the hold, none to claim a short one", async () => {
    const { hold, afterRelease, count, other, client } = await handedOn(["ja", "jb"]);
    expect(afterRelease).toBe(0);
    expect(count.joins).toBe(1);
    expect(await tryBoth(other, ["ja"])).toBeNull();
    expect(await tryBoth(other, ["jb"])).toBeNull();
    const before = count.requests;
    await hold.release();
    await client.settled();
    expect(count.requests - before).toBe(2); // one release per name
    expect(count.extends).toBe(0);
    const next = await tryBoth(other, ["ja", "jb"]);
    expect(next).not.toBeNull();
    await next!.release();
  });

  it("a join handed its name before its answer came back still counts: the waiter enters on both messages", async () => {
    const prefix = keyPrefix();
    const holder = createClient({ redis: restBackend(), prefix });
    const slow = { joinAnswerMs: 0 };
    const { backend, count } = counting(restBackend(), slow);
    const events: LockEvent[] = [];
    const client = createClient({ redis: backend, prefix, onEvent: (e) => events.push(e) });
    const warm = await client.multiLock(["pa:w", "pb:w"]).acquire();
    await warm.release();
    const held = await holder.multiLock(["pa", "pb"]).acquire({ leaseMs: 10_000 });
    slow.joinAnswerMs = 800; // the join runs at once; its answer comes 800 ms later
    const pending = client.multiLock(["pa", "pb"]).acquire({ waitMs: 10_000 });
    while (!events.some((e) => e.type === "waited")) await pause(2);
    await pause(300); // streams live, the join ran, its answer still on its way
    expect(count.joins).toBe(1);
    const before = count.requests;
    await held.release();
    const hold = await pending;
    expect(count.requests - before).toBe(0);
    // the join's answer, when it comes, undoes nothing: the grant it led to is held
    await pause(900);
    await client.settled();
    expect(hold.signal.aborted).toBe(false);
    expect(await holder.lock("pb").tryAcquire()).toBeNull();
    await hold.release();
  });

  it("held past the grants: one claim per name, and the hold lives on with the lease it asked for", async () => {
    const { hold, count, other } = await handedOn(["la", "lb"], { claimWindowMs: 600 });
    expect(count.extends).toBe(0);
    await pause(1_500); // well past the 600 ms grants
    expect(count.extends).toBe(2);
    expect(hold.signal.aborted).toBe(false);
    expect(await tryBoth(other, ["la"])).toBeNull();
    expect(await tryBoth(other, ["lb"])).toBeNull();
    expect(hold.toJSON().expiresAt - Date.now()).toBeGreaterThan(7_000);
    await hold.release();
    const next = await tryBoth(other, ["la", "lb"]);
    expect(next).not.toBeNull();
    await next!.release();
  });

  it("a nested acquire on the handle sends the claim at once and counts two holds", async () => {
    const { hold, multi, count, other } = await handedOn(["na", "nb"], { claimWindowMs: 6_000 });
    const started = Date.now();
    const inner = await multi.acquire({ leaseMs: 10_000, waitMs: 1_000 });
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(count.extends).toBe(2);
    expect(inner.fences).toEqual(hold.fences);
    await inner.release();
    expect(await tryBoth(other, ["na"])).toBeNull();
    expect(await tryBoth(other, ["nb"])).toBeNull();
    expect(hold.signal.aborted).toBe(false);
    await hold.release();
    const next = await tryBoth(other, ["na", "nb"]);
    expect(next).not.toBeNull();
    await next!.release();
  });

  it("a join never takes a free later name", async () => {
    const { holderClient, other, client, count, joinStatuses, waiting } = clients();
    const first = await holderClient.lock("fa").acquire({ leaseMs: 10_000 });
    const pending = client.multiLock(["fa", "fb"]).acquire({ waitMs: 10_000 });
    await waiting();
    expect(count.joins).toBe(1);
    expect(joinStatuses).toEqual([0]);
    const free = await other.lock("fb").tryAcquire();
    expect(free).not.toBeNull();
    await free!.release();
    await first.release();
    const hold = await pending;
    expect(hold.fenceOf("fb")).toBeGreaterThan(free!.fence);
    await hold.release();
  });

  it("a later name handed to the waiter without the first is given back within moments", async () => {
    // A long claim window: a grant kept until it lapsed would hold the name for 3 s.
    const { holderClient, other, client, waiting } = clients({ claimWindowMs: 3_000 });
    const first = await holderClient.lock("sa").acquire({ leaseMs: 20_000 });
    const second = await holderClient.lock("sb").acquire({ leaseMs: 20_000 });
    const pending = client.multiLock(["sa", "sb"]).acquire({ waitMs: 15_000 });
    await waiting(); // queued at sa, joined at sb
    const plain = other.lock("sb").acquire({ waitMs: 10_000 });
    await pause(200); // queued at sb behind the multi-lock's join
    const released = Date.now();
    await second.release(); // sb goes to the multi-lock's join, which cannot use it without sa
    const got = await plain;
    expect(Date.now() - released).toBeLessThan(1_000);
    await got.release();
    await first.release();
    const hold = await pending;
    await hold.release();
    const next = await tryBoth(other, ["sa", "sb"]);
    expect(next).not.toBeNull();
    await next!.release();
  });

  it("a partner's grant message that does not come within moments: the waiter asks every name and enters", async () => {
    const prefix = keyPrefix();
    const holder = createClient({ redis: restBackend(), prefix });
    const other = createClient({ redis: restBackend(), prefix });
    const patterns: string[] = [];
    const inner = restBackend();
    const seen = tapBackend(inner, inner.command.bind(inner));
    if (seen.psubscribe) {
      const psubscribe = seen.psubscribe;
      seen.psubscribe = (pattern, signal) => (patterns.push(pattern), psubscribe(pattern, signal));
    }
    // The later name's messages come 2.5 s late; the first name's at once.
    const { backend, count } = counting(slowPushOn(seen, "mb", 2_500));
    const events: LockEvent[] = [];
    const client = createClient({ redis: backend, prefix, onEvent: (e) => events.push(e) });
    const warm = await client.multiLock(["ma:w", "mb:w"]).acquire();
    await warm.release();
    const held = await holder.multiLock(["ma", "mb"]).acquire({ leaseMs: 10_000 });
    const pending = client.multiLock(["ma", "mb"]).acquire({ leaseMs: 10_000, waitMs: 10_000 });
    while (!events.some((e) => e.type === "waited")) await pause(2);
    await pause(300);
    expect(count.joins).toBe(1);
    expect(patterns.some((p) => p.includes("mb"))).toBe(true); // the later name's stream is the slow one
    const before = count.requests;
    const released = Date.now();
    await held.release();
    const hold = await pending;
    // the grace is half a round trip (at least 10 ms), not the 2.5 s the message took
    expect(Date.now() - released).toBeLessThan(1_000);
    expect(count.requests - before).toBeGreaterThanOrEqual(1); // it asked: the grants were claimed
    expect(await tryBoth(other, ["ma"])).toBeNull();
    expect(await tryBoth(other, ["mb"])).toBeNull();
    await pause(2_700); // the late message comes, for a grant already taken: it changes nothing
    expect(hold.signal.aborted).toBe(false);
    expect(await tryBoth(other, ["mb"])).toBeNull();
    await hold.release();
    const next = await tryBoth(other, ["ma", "mb"]);
    expect(next).not.toBeNull();
    await next!.release();
  });

  it("a waiter whose grants came incomplete joins no more in that wait, and still gets the names", async () => {
    const { holderClient, other, client, count, waiting } = clients({ claimWindowMs: 3_000 });
    const first = await holderClient.lock("oa").acquire({ leaseMs: 20_000 });
    const second = await holderClient.lock("ob").acquire({ leaseMs: 20_000 });
    const pending = client.multiLock(["oa", "ob"]).acquire({ waitMs: 15_000 });
    await waiting(); // queued at oa, joined at ob
    expect(count.joins).toBe(1);
    await second.release(); // ob goes to the join without oa: given back, and no join again
    await pause(1_000);
    expect(count.joins).toBe(1);
    const free = await other.lock("ob").tryAcquire(); // given back, not joined again
    expect(free).not.toBeNull();
    await free!.release();
    await first.release();
    const hold = await pending;
    expect(count.joins).toBe(1);
    await hold.release();
    const next = await tryBoth(other, ["oa", "ob"]);
    expect(next).not.toBeNull();
    await next!.release();
  });

  it("busy at a later name after its first was handed over: the waiter leaves that name's queue, where a grant would wait for nothing", async () => {
    const { holderClient, other, client, waiting } = clients({ claimWindowMs: 3_000 });
    const first = await holderClient.lock("ba").acquire({ leaseMs: 20_000 });
    const second = await holderClient.lock("bb").acquire({ leaseMs: 20_000 });
    const pending = client.multiLock(["ba", "bb"]).acquire({ leaseMs: 20_000, waitMs: 15_000 });
    await waiting(); // queued at ba, joined at bb
    const nextAtFirst = holderClient.lock("ba").acquire({ leaseMs: 20_000, waitMs: 10_000 });
    const plain = other.lock("bb").acquire({ leaseMs: 20_000, waitMs: 10_000 });
    await pause(200); // queued at ba behind the multi-lock, and at bb behind its join
    await first.release(); // ba goes to the waiter, which asks bb: busy, so it gives ba back…
    const atFirst = await nextAtFirst; // …to the next in ba's queue: the waiter waits for ba again
    await pause(300);
    const released = Date.now();
    // bb goes to the head of its queue: the plain waiter, not the multi-lock's join, whose grant
    // would be kept for it (3 s) while it waits for ba
    await second.release();
    const got = await plain;
    expect(Date.now() - released).toBeLessThan(1_000);
    await got.release();
    await atFirst.release();
    const hold = await pending;
    await hold.release();
  });

  it("busy at a later name, with no place in any queue: the waiter polls, it does not sleep on its stream", async () => {
    const { holderClient, client, waiting } = clients();
    const first = await holderClient.lock("qa").acquire({ leaseMs: 20_000 });
    const second = await holderClient.lock("qb").acquire({ leaseMs: 20_000 });
    const pending = client.multiLock(["qa", "qb"]).acquire({ leaseMs: 20_000, waitMs: 15_000 });
    await waiting(); // queued at qa (its stream open), joined at qb
    await first.release(); // qa handed over; qb busy: qa given back, the waiter queued nowhere
    await pause(100);
    const released = Date.now();
    await second.release(); // nothing tells the waiter: only its own poll finds both free
    const hold = await pending;
    // a push waiter's sleep is the 2 s safety poll; with no place, a grant never comes
    expect(Date.now() - released).toBeLessThan(1_000);
    await hold.release();
  });

  it("a wait longer than a join's promised poll: the joins are refreshed, and the waiter still enters on both messages", async () => {
    // A join promises to poll within max delay + request timeout (2 s + 1 s here): a queue
    // skips a waiter past that. The safety polls at the first name refresh the later joins.
    const { holderClient, client, count, waiting } = clients({ requestTimeoutMs: 1_000 });
    const warm = await client.multiLock(["ra:w", "rb:w"]).acquire();
    await warm.release();
    const held = await holderClient.multiLock(["ra", "rb"]).acquire({ leaseMs: 20_000 });
    const pending = client.multiLock(["ra", "rb"]).acquire({ leaseMs: 20_000, waitMs: 15_000 });
    await waiting();
    await pause(5_000); // well past the first join's promise
    expect(count.joins).toBeGreaterThanOrEqual(2);
    const before = count.requests;
    await held.release();
    const hold = await pending;
    expect(count.requests - before).toBe(0);
    await hold.release();
  });

  it("a waiter that gives up leaves the later names' queues too", async () => {
    const { holderClient, other, client, waiting } = clients({ claimWindowMs: 3_000 });
    const first = await holderClient.lock("ga").acquire({ leaseMs: 20_000 });
    const second = await holderClient.lock("gb").acquire({ leaseMs: 20_000 });
    const gaveUp = client
      .multiLock(["ga", "gb"])
      .acquire({ waitMs: 600 })
      .catch((e: unknown) => e);
    await waiting();
    expect(await gaveUp).toBeInstanceOf(Error);
    await client.settled();
    const plain = other.lock("gb").acquire({ waitMs: 10_000 });
    await pause(100);
    const released = Date.now();
    await second.release();
    const got = await plain;
    // handed at the release: no grant reserved for the waiter that left
    expect(Date.now() - released).toBeLessThan(1_000);
    await got.release();
    await first.release();
  });

  it("multi-locks of overlapping names and Locks on them, all waiting: never two inside a name, none stuck", async () => {
    // Joins of different multi-locks meet on shared names in every order: splits and give-backs.
    const prefix = keyPrefix();
    const inside = new Map<string, number>();
    let overlaps = 0;
    let sections = 0;
    const plans = [["x", "y"], ["x", "y"], ["y", "z"], ["x", "y", "z"], ["y"], ["z", "x"]];
    const until = Date.now() + 4_000;
    await Promise.all(
      plans.map(async (names) => {
        const client = createClient({ redis: restBackend(), prefix });
        while (Date.now() < until) {
          const held =
            names.length === 1
              ? await client.lock(names[0]!).acquire({ waitMs: 20_000 })
              : await client.multiLock(names).acquire({ waitMs: 20_000 });
          for (const n of names) {
            inside.set(n, (inside.get(n) ?? 0) + 1);
            if (inside.get(n)! > 1) overlaps++;
          }
          await pause(Math.random() * 15);
          for (const n of names) inside.set(n, inside.get(n)! - 1);
          expect(held.signal.aborted).toBe(false);
          await held.release();
          sections++;
        }
        await client.settled();
      }),
    );
    expect(overlaps).toBe(0);
    expect(sections).toBeGreaterThan(30);
    const all = await tryBoth(createClient({ redis: restBackend(), prefix }), ["x", "y", "z"]);
    expect(all).not.toBeNull();
    await all!.release();
  });
});
