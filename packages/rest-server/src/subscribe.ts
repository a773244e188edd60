import { EventStream } from "./event-stream.ts";
import type { RestRedisClient } from "./options.ts";

export type SubscribeKind = "subscribe" | "psubscribe";

/**
 * `/subscribe/<channel>` and `/psubscribe/<pattern>` as Server-Sent Events, in Upstash's format
 * (docs: redis/features/restapi, "Subscribe & Publish Commands"; parsed by @upstash/redis
 * `Subscriber.handleMessage`): each event is one `data:` line (then a blank line, which ends an
 * event for EventSource and is skipped by @upstash/redis), comma-separated fields, the payload
 * as UTF-8 text — not base64, even under `Upstash-Encoding: base64`:
 *
 *     data: subscribe,<channel>,<count>
 *     data: message,<channel>,<payload>
 *     data: psubscribe,<pattern>,<count>
 *     data: pmessage,<pattern>,<channel>,<payload>
 *
 * Each stream gets its own Redis connection (a subscribed connection can do nothing else),
 * closed when the client disconnects or the app closes.
 */
export class Subscriptions {
  #open = new Set<() => void>();

  readonly #redis: RestRedisClient;

  constructor(redis: RestRedisClient) {
    this.#redis = redis;
  }

  async open(
    kind: SubscribeKind,
    targets: readonly string[],
    signal: AbortSignal,
    headers: HeadersInit,
  ): Promise<Response> {
    // The client is already gone: nothing to stream to.
    if (signal.aborted) return new Response(null, { status: 499 });
    // Not annotated: ReturnType<RestRedisClient["duplicate"]> is another instantiation of
    // node-redis's client type, and relating the two costs TypeScript seconds per program.
    const subscriber = this.#redis.duplicate();
    // A lost subscriber connection ends its stream; the error itself is not worth crashing for.
    subscriber.on("error", () => undefined);
    const close = () => {
      this.#open.delete(close);
      signal.removeEventListener("abort", close);
      stream.close();
      try {
        subscriber.destroy();
      } catch {
        // already closed by a connection error
      }
    };
    const stream = new EventStream(close);
    // Registered before connecting, so that close() during the set-up also ends it.
    this.#open.add(close);
    signal.addEventListener("abort", close, { once: true });
    try {
      await subscriber.connect();
      for (const target of targets) {
        // One listener per target, so a pattern message names the pattern it came through.
        const listener = (message: Buffer, channel: Buffer) => {
          const prefix = kind === "subscribe" ? "message" : `pmessage,${target}`;
          stream.send(`${prefix},${channel.toString("utf8")},${message.toString("utf8")}`);
        };
        if (kind === "subscribe") await subscriber.subscribe(target, listener, true);
        else await subscriber.pSubscribe(target, listener, true);
      }
    } catch (error) {
      close();
      throw error;
    }
    // Redis counts the subscriptions of the connection; this stream's connection has only these.
    stream.release(targets.map((target, index) => `${kind},${target},${index + 1}`));
    return new Response(stream.body, { headers });
  }

  /** Ends every stream and closes its Redis connection. */
  closeAll(): void {
    for (const close of [...this.#open]) close();
  }
}
