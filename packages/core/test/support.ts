import {
  type Backend,
  createClient,
  resolveBackend,
  type ClientOptions,
  type EdgelockClient,
  type LockEvent,
  type RedisInput,
} from "../src/index.ts";

/** Wraps a backend to count the requests the engine makes (per command name). */
export function countingBackend(inner: Backend) {
  const counts = { total: 0, byCommand: new Map<string, number>() };
  const backend: Backend = {
    kind: inner.kind,
    command(args, signal) {
      counts.total++;
      const name = String(args[0]).toUpperCase();
      counts.byCommand.set(name, (counts.byCommand.get(name) ?? 0) + 1);
      return inner.command(args, signal);
    },
  };
  return { backend, counts };
}

export interface TestClient {
  readonly client: EdgelockClient;
  readonly events: LockEvent[];
  readonly requests: { total: number; byCommand: Map<string, number> };
}

/** Observers of every event of every test client in this test file (the event-masking audit). */
export const eventTaps: ((event: LockEvent) => void)[] = [];

/** A client over `redis` with a counting backend and an event log. */
export function makeTestClient(
  redis: RedisInput,
  options: Omit<ClientOptions, "redis"> = {},
): TestClient {
  const { backend, counts } = countingBackend(resolveBackend(redis));
  const events: LockEvent[] = [];
  const onEvent = (e: LockEvent) => {
    events.push(e);
    for (const tap of eventTaps) tap(e);
  };
  const client = createClient({ ...options, redis: backend, onEvent });
  return { client, events, requests: counts };
}

export function eventsOf<T extends LockEvent["type"]>(
  events: LockEvent[],
  type: T,
): Extract<LockEvent, { type: T }>[] {
  return events.filter((e): e is Extract<LockEvent, { type: T }> => e.type === type);
}

/** Resolves when `signal` aborts; rejects after `ms` so a test fails instead of hanging. */
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

export const delay = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Polls `read` until it returns `want` or `ms` pass, and returns what it read last. For the
 * server side of a lease the holder already gave up: the holder's deadline counts from when its
 * grant or renewal was sent, the server's from when the script ran (later by the request's way
 * there), so the server lets go a little after the holder's signal aborts, never before.
 */
export async function settlesTo<T>(read: () => Promise<T>, want: T, ms = 1_000): Promise<T> {
  const end = Date.now() + ms;
  let value = await read();
  while (!Object.is(value, want) && Date.now() < end) {
    await delay(10);
    value = await read();
  }
  return value;
}
