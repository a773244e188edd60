import { AbortedError } from "../errors.ts";

/** What a waiter learns from its grant channel while it sleeps. */
export type PushEvent =
  | { readonly type: "message"; readonly payload: string }
  /** The subscription is confirmed: every message published from now on arrives. */
  | { readonly type: "live" }
  /** The stream ended or broke: the waiter is back to polling (it keeps its place in the queue). */
  | { readonly type: "closed" }
  | { readonly type: "timeout" };

type Subscribe = (channel: string, signal: AbortSignal) => AsyncIterable<string>;

/** What a waiter listens on while it sleeps: one grant channel (`PushStream`) or several at once. */
export interface GrantStream {
  readonly live: boolean;
  readonly closed: boolean;
  /** The next event, or `timeout` after `ms`; rejects with `AbortedError` when `signal` aborts. */
  next(ms: number, signal: AbortSignal | undefined, what: string): Promise<PushEvent>;
  close(): void;
}

/**
 * Events queued for one reader: `next()` takes the oldest, or waits for one up to `ms`.
 * Shared by a single stream and by a multi-lock's streams read together.
 */
export class PushEvents {
  readonly #events: PushEvent[] = [];
  #wake: (() => void) | undefined;

  /** The next event, or `timeout` after `ms`; rejects with `AbortedError` when `signal` aborts. */
  next(ms: number, signal: AbortSignal | undefined, what: string): Promise<PushEvent> {
    const queued = this.#events.shift();
    if (queued) return Promise.resolve(queued);
    if (signal?.aborted) return Promise.reject(new AbortedError(what, signal.reason));
    return new Promise((resolve, reject) => {
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        this.#wake = undefined;
      };
      const onAbort = () => {
        done();
        reject(new AbortedError(what, signal?.reason));
      };
      const timer = setTimeout(
        () => {
          done();
          resolve({ type: "timeout" });
        },
        Math.max(0, ms),
      );
      signal?.addEventListener("abort", onAbort, { once: true });
      this.#wake = () => {
        done();
        resolve(this.#events.shift() ?? { type: "timeout" });
      };
    });
  }

  protected push(event: PushEvent): void {
    this.#events.push(event);
    this.#wake?.();
  }
}

/**
 * One waiter's subscription to its grant channel, held only while it waits. It reads Upstash's
 * event lines (`subscribe,…` then `message,<channel>,<payload>`) and queues what matters; a broken
 * stream is not an error, only the end of push.
 */
export class PushStream extends PushEvents implements GrantStream {
  #state: "connecting" | "live" | "closed" = "connecting";
  readonly #controller = new AbortController();

  constructor(subscribe: Subscribe, channel: string) {
    super();
    void this.#read(subscribe, channel);
  }

  get live(): boolean {
    return this.#state === "live";
  }

  get closed(): boolean {
    return this.#state === "closed";
  }

  close(): void {
    this.#state = "closed";
    this.#controller.abort();
  }

  async #read(subscribe: Subscribe, channel: string): Promise<void> {
    const prefix = `message,${channel},`;
    try {
      for await (const line of subscribe(channel, this.#controller.signal)) {
        if (line.startsWith(prefix))
          this.push({ type: "message", payload: line.slice(prefix.length) });
        else if (this.#state === "connecting" && line.startsWith("subscribe,")) {
          this.#state = "live";
          this.push({ type: "live" });
        }
      }
    } catch {
      // A refused or broken stream only means: poll. The waiter keeps its place in the queue.
    }
    if (this.#state === "closed") return;
    this.#state = "closed";
    this.push({ type: "closed" });
  }
}
