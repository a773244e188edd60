import type { RestRedisClient } from "./options.ts";

export type SubscribeKind = "subscribe" | "psubscribe";

type Subscriber = ReturnType<RestRedisClient["duplicate"]>;

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

  constructor(private readonly redis: RestRedisClient) {}

  async open(kind: SubscribeKind, targets: readonly string[], signal: AbortSignal, headers: HeadersInit): Promise<Response> {
    const subscriber: Subscriber = this.redis.duplicate();
    // A lost subscriber connection ends its stream; the error itself is not worth crashing for.
    subscriber.on("error", () => undefined);
    const encoder = new TextEncoder();
    let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
    let closed = false;
    const close = () => {
      if (closed) return;
      closed = true;
      this.#open.delete(close);
      signal.removeEventListener("abort", close);
      subscriber.destroy();
      try {
        controller?.close();
      } catch {
        // already closed or cancelled by the reader
      }
    };
    // Registered before connecting so that close() during the set-up also ends it.
    this.#open.add(close);
    signal.addEventListener("abort", close, { once: true });
    const stream = new ReadableStream<Uint8Array>({
      start: (c) => {
        controller = c;
      },
      cancel: close,
    });
    // Messages can arrive in the same read as the confirmation, before the `subscribe` line is
    // written: hold them until it is.
    let held: string[] | undefined = [];
    const send = (line: string) => {
      if (closed) return;
      if (held !== undefined) held.push(line);
      else controller?.enqueue(encoder.encode(`data: ${line}\n\n`));
    };
    try {
      await subscriber.connect();
      for (const target of targets) {
        // One listener per target, so a pattern message names the pattern it came through.
        const listener = (message: Buffer, channel: Buffer) => {
          const prefix = kind === "subscribe" ? "message" : `pmessage,${target}`;
          send(`${prefix},${channel.toString("utf8")},${message.toString("utf8")}`);
        };
        if (kind === "subscribe") await subscriber.subscribe(target, listener, true);
        else await subscriber.pSubscribe(target, listener, true);
      }
    } catch (error) {
      close();
      throw error;
    }
    const pending = held;
    held = undefined;
    targets.forEach((target, index) => send(`${kind},${target},${index + 1}`));
    for (const line of pending) send(line);
    return new Response(stream, { headers });
  }

  /** Ends every stream and closes its Redis connection. */
  closeAll(): void {
    for (const close of [...this.#open]) close();
  }
}
