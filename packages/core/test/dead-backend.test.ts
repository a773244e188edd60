import { createServer, type Server, type Socket } from "node:net";
import { Redis } from "@upstash/redis";
import { afterEach, describe, expect, it } from "vitest";
import {
  BackendError,
  createClient,
  InvalidArgumentError,
  OutcomeUnknownError,
  resolveBackend,
  upstashRestBackend,
  type ClientOptions,
  type EdgelockClient,
} from "../src/index.ts";
import { acquireScript, inspectScript } from "../src/lock/scripts.generated.ts";
import { useFaultStack } from "./fault-stack.ts";

// A dead or misconfigured backend fails fast, and every call keeps to its budget.
const { stack: current } = useFaultStack();

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

/** A TCP server on 127.0.0.1 running `onSocket` per connection. */
async function tcpServer(onSocket: (socket: Socket, server: Server) => void): Promise<number> {
  const server = createServer((socket) => onSocket(socket, server));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as { port: number }).port;
}

/** A port on 127.0.0.1 where nothing listens: every connection is refused. */
async function closedPort(): Promise<number> {
  const port = await tcpServer(() => undefined);
  await new Promise((resolve) => servers.pop()!.close(resolve));
  return port;
}

const rest = (url: string, options: Omit<ClientOptions, "redis"> = {}) =>
  createClient({ redis: { url, token: "t" }, prefix: `dead${Math.random()}`, ...options });

/** What the call threw and how long it took (ms). */
async function timed(call: () => Promise<unknown>): Promise<{ error: unknown; ms: number }> {
  const start = performance.now();
  const error = await call().then(
    () => new Error("resolved"),
    (e: unknown) => e,
  );
  return { error, ms: performance.now() - start };
}

/** Every call a user makes first: a read, a try, a waiting acquire. */
function firstCalls(client: EdgelockClient) {
  const lock = client.lock("dead");
  return {
    "isLocked()": () => lock.isLocked(),
    "tryAcquire()": () => lock.tryAcquire(),
    "acquire({ waitMs: 1_000 })": () => lock.acquire({ waitMs: 1_000 }),
  };
}

describe("a backend that cannot be reached fails at once with a BackendError naming the cause", () => {
  it("connection refused (a closed port on 127.0.0.1)", async () => {
    const port = await closedPort();
    for (const [what, call] of Object.entries(firstCalls(rest(`http://127.0.0.1:${port}`)))) {
      const { error, ms } = await timed(call);
      expect(error, what).toBeInstanceOf(BackendError);
      expect((error as Error).message, what).toMatch(/connection refused, ECONNREFUSED/);
      expect((error as Error).message, what).toContain(`http://127.0.0.1:${port}`);
      // It used to retry for the whole 10 s window and end as OutcomeUnknownError.
      expect(ms, what).toBeLessThan(1_000);
    }
  });

  it("a host that does not resolve (DNS)", async () => {
    for (const [what, call] of Object.entries(firstCalls(rest("http://nonexistent.invalid")))) {
      const { error, ms } = await timed(call);
      expect(error, what).toBeInstanceOf(BackendError);
      expect((error as Error).message, what).toMatch(/ENOTFOUND|EAI_AGAIN/);
      expect(ms, what).toBeLessThan(3_000);
    }
  });

  it("through an @upstash/redis requester (credentials not visible), a refused connection too", async () => {
    const port = await closedPort();
    const upstash = new Redis({ url: `http://127.0.0.1:${port}`, token: "t", retry: false });
    const inner = (upstash as unknown as { client: { request(r: unknown): Promise<unknown> } })
      .client;
    // What an @upstash/redis client with a custom requester looks like inside.
    const redis = { client: { request: (r: unknown) => inner.request(r) } } as never;
    const client = createClient({ redis: resolveBackend(redis), prefix: "dead" });
    const { error, ms } = await timed(() => client.lock("dead").tryAcquire());
    expect(error).toBeInstanceOf(BackendError);
    expect((error as Error).message).toMatch(/ECONNREFUSED/);
    expect(ms).toBeLessThan(1_000);
  });

  it("a refusal after an attempt that may have run leaves the outcome unknown", async () => {
    // The first connection is cut after the request was sent; then the port closes.
    const port = await tcpServer((socket, server) => {
      server.close();
      socket.once("data", () => socket.destroy());
    });
    servers.pop();
    // The settle cannot reach the server either, so the outcome stays unknown; it is reported
    // once the operation's deadline has surely passed at the server (docs/protocol.md): the
    // budget (one request timeout) plus twice the clock error bound for a client that has never
    // read the server clock.
    const requestTimeoutMs = 1_000;
    const clockErrorMs = 200;
    const client = rest(`http://127.0.0.1:${port}`, { requestTimeoutMs, clockErrorMs });
    const { error, ms } = await timed(() => client.lock("x").tryAcquire());
    expect(error).toBeInstanceOf(OutcomeUnknownError);
    expect(ms).toBeGreaterThanOrEqual(requestTimeoutMs);
    expect(ms).toBeLessThan(requestTimeoutMs + 2 * clockErrorMs + 400);
  });
});

describe("a URL that cannot be an Upstash REST endpoint fails when the client is made", () => {
  const argumentOf = (make: () => unknown) => {
    try {
      make();
      return "no error";
    } catch (e) {
      expect(e).toBeInstanceOf(InvalidArgumentError);
      return `${(e as InvalidArgumentError).argument} | ${(e as Error).message}`;
    }
  };

  it("names the option and says what to fix", () => {
    expect(argumentOf(() => rest("not a url"))).toMatch(
      /^redis\.url \| .*expected an http\(s\) URL of an Upstash REST endpoint.*got "not a url"/,
    );
    expect(argumentOf(() => rest("redis://127.0.0.1:6379"))).toMatch(
      /^redis\.url \| .*got redis:\/\/127\.0\.0\.1:6379 \(that is a Redis protocol URL; use the REST URL/,
    );
    expect(argumentOf(() => rest("ftp://example.com"))).toMatch(/^redis\.url \| .*got ftp:/);
    expect(argumentOf(() => rest(""))).toMatch(/^redis\.url \| .*UPSTASH_REDIS_REST_URL set\?/);
    expect(
      argumentOf(() =>
        createClient({ redis: { url: "https://x.upstash.io" } as never, prefix: "p" }),
      ),
    ).toMatch(/^redis\.token \| .*UPSTASH_REDIS_REST_TOKEN/);
    expect(argumentOf(() => upstashRestBackend({ url: "redis://h:6379", token: "t" }))).toMatch(
      /^options\.url \| /,
    );
  });

  it("never echoes a password", () => {
    const message = argumentOf(() => rest("rediss://default:s3cret@eu1.upstash.io:6379"));
    expect(message).not.toContain("s3cret");
    expect(message).toContain("rediss://default:***@eu1.upstash.io:6379");
  });

  it("checks the URL of an @upstash/redis client too (Redis.fromEnv() without its variables)", () => {
    const warn = console.warn;
    console.warn = () => undefined;
    try {
      const upstash = new Redis({ url: "", token: "" });
      expect(argumentOf(() => createClient({ redis: upstash }))).toMatch(
        /^redis \| redis: the @upstash\/redis client's url: .*UPSTASH_REDIS_REST_URL set\?/,
      );
    } finally {
      console.warn = warn;
    }
  });
});

describe("a failure that may have come after sending is settled within the budget", () => {
  const requestTimeoutMs = 400;
  const slack = 400;
  const make = () =>
    createClient({
      redis: { url: current().rest.url, token: current().rest.token },
      prefix: `amb${Math.random()}`,
      requestTimeoutMs,
    });

  for (const kind of ["drop-before", "hang"] as const) {
    it(`${kind}: tryAcquire() within one request timeout, acquire({ waitMs }) within waitMs + one`, async () => {
      await current().faults.add({ kind, times: 10_000, match: acquireScript.sha });
      const lock = make().lock("bounded");
      // The settle (another script) gets through and tombstones the attempt: known not applied.
      const settled = /did not apply \(settled after its retries ran out\)/;
      const tried = await timed(() => lock.tryAcquire());
      expect(tried.error).toBeInstanceOf(BackendError);
      expect((tried.error as Error).message).toMatch(settled);
      expect(tried.ms).toBeLessThan(requestTimeoutMs + slack);
      const waited = await timed(() => lock.acquire({ waitMs: 1_000 }));
      expect(waited.error).toBeInstanceOf(BackendError);
      expect((waited.error as Error).message).toMatch(settled);
      expect(waited.ms).toBeLessThan(1_000 + requestTimeoutMs + slack);
      await current().faults.clear();
      expect(await lock.isLocked()).toBe(false);
    });

    it(`${kind}: a read never reports an unknown outcome`, async () => {
      await current().faults.add({ kind, times: 10_000, match: inspectScript.sha });
      const client = createClient({
        redis: { url: current().rest.url, token: current().rest.token },
        prefix: `amb${Math.random()}`,
        requestTimeoutMs,
        retryWindowMs: 1_000,
      });
      const { error, ms } = await timed(() => client.lock("read").isLocked());
      expect(error).toBeInstanceOf(BackendError);
      expect((error as Error).message).toMatch(/inspect "read": no answer after \d+ attempts?/);
      expect(ms).toBeLessThan(1_000 + requestTimeoutMs + slack);
    });
  }
});
