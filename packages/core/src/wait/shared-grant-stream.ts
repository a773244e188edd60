import { now } from "../engine/clock.ts";
import type { Backend } from "../backend/backend.ts";

/** What a waiter's push reads: Upstash's `subscribe,…` and `message,<channel>,<payload>` lines. */
export type Subscribe = (channel: string, signal: AbortSignal) => AsyncIterable<string>;

/**
 * How the waiters of one client on one name listen for their grants: over one stream for all of
 * them, never one per waiter (a stampede of waiters in one isolate opened as many streams as
 * waiters). Each primitive publishes a grant on `channelPrefix + waiter`; one `/psubscribe` on
 * `channelPrefix*` hears them all, and each waiter is handed the lines of its own channel, in the
 * shape a `/subscribe` of that channel would give. The stream opens with the first waiter that
 * listens (never on the uncontended path) and closes `LINGER_MS` after the last one stopped, so
 * the client's next wait on the name finds it live. A backend without patterns falls back to a
 * stream per waiter; one without push gives `undefined` (poll only).
 */
export function grantSubscribe(backend: Backend, channelPrefix: string): Subscribe | undefined {
  const { psubscribe, subscribe } = backend;
  if (psubscribe === undefined)
    return subscribe && ((channel, signal) => subscribe(channel, signal));
  const pattern = globEscape(channelPrefix) + "*";
  return (channel, signal) => {
    let streams = shared.get(backend);
    if (streams === undefined) shared.set(backend, (streams = new Map()));
    let stream = streams.get(pattern);
    if (stream === undefined || stream.ended) {
      stream = new PatternStream((s) => psubscribe(pattern, s), pattern);
      streams.set(pattern, stream);
    }
    return stream.listen(channel, signal);
  };
}

// Per client (its backend): the open pattern streams, by pattern.
const shared = new WeakMap<Backend, Map<string, PatternStream>>();

/**
 * What a head of the queue needs to know before it listens (see wait-loop.ts): whether a stream
 * on the name is live already (joining it costs nothing, and a grant made since the waiter's
 * attempt reached the server was kept for it), and whether this client waited on the name
 * recently (a loop of acquires: a stream it opens now will serve its next waits too). `note()`
 * records a wait. Undefined where streams are not shared (no patterns, or no push).
 */
export interface GrantStreamState {
  live(): boolean;
  waitedRecently(): boolean;
  note(): void;
}

/** How soon a second wait on a name counts as a loop of acquires; longer than `LINGER_MS`. */
export const RECENT_WAIT_MS = 5_000;
const RECENT_MAX = 256;

// Per client: when it last waited on each name (its pattern), oldest first; at most RECENT_MAX.
const recentWaits = new WeakMap<Backend, Map<string, number>>();

export function grantStreamState(
  backend: Backend,
  channelPrefix: string,
): GrantStreamState | undefined {
  if (backend.psubscribe === undefined) return undefined;
  const pattern = globEscape(channelPrefix) + "*";
  return {
    live: () => {
      const stream = shared.get(backend)?.get(pattern);
      return stream !== undefined && stream.live && !stream.ended;
    },
    waitedRecently: () => {
      const at = recentWaits.get(backend)?.get(pattern);
      return at !== undefined && now() - at < RECENT_WAIT_MS;
    },
    note: () => {
      let waits = recentWaits.get(backend);
      if (waits === undefined) recentWaits.set(backend, (waits = new Map()));
      waits.delete(pattern); // re-inserted last: the map stays in order of last wait
      waits.set(pattern, now());
      if (waits.size > RECENT_MAX) waits.delete(waits.keys().next().value!);
    },
  };
}

/**
 * How long a stream stays open after its last waiter stopped. A waiter opens its stream only once
 * its busy answer is back, so a grant made in between (the answer's way back and the stream's set
 * up, about a round trip) was lost, and the head learnt of it by its safety poll near the end of
 * the claim window (2 s). A client that waits again on the name soon (a loop of acquires) finds
 * the stream live instead: no new stream request, and no grant lost in that gap. Short, since an
 * open stream delays a Node process's exit by as much.
 */
export const LINGER_MS = 1_000;

/**
 * How long a grant for a channel nobody listens on yet is kept for a waiter about to listen (the
 * window above, on a live stream). A kept message older than the waiter's last busy answer is
 * told apart by its primitive (`pushedGrantMs`: stale) or costs one attempt.
 */
export const KEEP_MS = 1_000;
const KEEP_MAX = 64;

/** Redis glob's special characters in a name must match only themselves. */
function globEscape(text: string): string {
  return text.replace(/[*?[\]\\]/g, "\\$&");
}

/** A waiter's share of the stream: its lines, queued until it reads them. */
class Listener {
  readonly lines: string[] = [];
  ended = false;
  /** Why the stream ended, when it broke or was refused: each waiter sees it as its own. */
  failure: unknown;
  #wake: (() => void) | undefined;

  push(line: string): void {
    this.lines.push(line);
    this.#wake?.();
  }

  end(failure?: unknown): void {
    this.ended = true;
    this.failure ??= failure;
    this.#wake?.();
  }

  /** The next line, or `undefined` once ended and drained. */
  async next(): Promise<string | undefined> {
    while (this.lines.length === 0 && !this.ended)
      await new Promise<void>((resolve) => (this.#wake = resolve));
    this.#wake = undefined;
    return this.lines.shift();
  }
}

/** One `/psubscribe` stream and the waiters listening on it, by channel. */
class PatternStream {
  readonly #listeners = new Map<string, Set<Listener>>();
  readonly #controller = new AbortController();
  /** Messages (`<channel>,<payload>`) no waiter listened for yet, with when they came. */
  #kept: { rest: string; at: number }[] = [];
  #linger: ReturnType<typeof setTimeout> | undefined;
  #live = false;

  /** The subscription is confirmed: every message published from now on arrives. */
  get live(): boolean {
    return this.#live;
  }
  #failure: unknown;
  ended = false;

  constructor(
    open: (signal: AbortSignal) => AsyncIterable<string>,
    readonly pattern: string,
  ) {
    void this.#read(open);
  }

  async *listen(channel: string, signal: AbortSignal): AsyncGenerator<string> {
    clearTimeout(this.#linger);
    this.#linger = undefined;
    const listener = new Listener();
    const set = this.#listeners.get(channel) ?? new Set();
    this.#listeners.set(channel, set);
    set.add(listener);
    // Already live: every grant published from now on reaches this waiter, and those that came
    // for it since its busy answer (kept) too.
    if (this.#live) listener.push(`subscribe,${channel},1`);
    for (const line of this.#takeKept(channel)) listener.push(line);
    if (this.ended) listener.end(this.#failure);
    const onAbort = () => listener.end();
    signal.addEventListener("abort", onAbort, { once: true });
    try {
      for (;;) {
        const line = await listener.next();
        if (line === undefined && listener.failure !== undefined) throw listener.failure;
        if (line === undefined) return;
        yield line;
      }
    } finally {
      signal.removeEventListener("abort", onAbort);
      set.delete(listener);
      if (set.size === 0) this.#listeners.delete(channel);
      // The last waiter left: the stream lingers for this client's next wait on the name.
      if (this.#listeners.size === 0 && !this.ended) {
        clearTimeout(this.#linger);
        this.#linger = setTimeout(() => {
          if (this.#listeners.size === 0) this.#close();
        }, LINGER_MS);
      }
    }
  }

  #close(): void {
    this.ended = true;
    this.#kept = [];
    this.#controller.abort();
  }

  /** The kept messages of `channel`, as its lines, taken out of the store. */
  #takeKept(channel: string): string[] {
    const since = now() - KEEP_MS;
    const lines: string[] = [];
    this.#kept = this.#kept.filter(({ rest, at }) => {
      if (at < since) return false;
      if (!rest.startsWith(channel + ",")) return true;
      lines.push(`message,${channel},${rest.slice(channel.length + 1)}`);
      return false;
    });
    return lines;
  }

  async #read(open: (signal: AbortSignal) => AsyncIterable<string>): Promise<void> {
    const message = `pmessage,${this.pattern},`;
    try {
      for await (const line of open(this.#controller.signal)) {
        if (line.startsWith(message)) this.#deliver(line.slice(message.length));
        else if (!this.#live && line.startsWith("psubscribe,")) {
          this.#live = true;
          for (const [channel, set] of this.#listeners)
            for (const listener of set) listener.push(`subscribe,${channel},1`);
        }
      }
    } catch (error) {
      // Handed to every waiter as a failure of its own stream (a refused or broken stream only
      // means: poll; each keeps its place in the queue).
      this.#failure = this.#controller.signal.aborted ? undefined : error;
    }
    this.ended = true;
    clearTimeout(this.#linger);
    this.#kept = [];
    for (const set of this.#listeners.values())
      for (const listener of set) listener.end(this.#failure);
  }

  /**
   * `rest` is `<channel>,<payload>`. A channel may hold commas, so it is the longest of the
   * waiters' channels that `rest` starts with. A misread
   * payload costs its waiter one attempt: the server, not the message, decides who holds.
   */
  #deliver(rest: string): void {
    let best: string | undefined;
    for (const channel of this.#listeners.keys())
      if (rest.startsWith(channel + ",") && channel.length > (best?.length ?? -1)) best = channel;
    if (best === undefined) {
      // Nobody listens on it yet: a waiter whose busy answer is on its way back may, soon.
      this.#kept.push({ rest, at: now() });
      if (this.#kept.length > KEEP_MAX) this.#kept.shift();
      return;
    }
    const line = `message,${best},${rest.slice(best.length + 1)}`;
    for (const listener of this.#listeners.get(best) ?? []) listener.push(line);
  }
}
