/**
 * The backend seam: the smallest surface the engine needs from Redis. One implementation speaks
 * Upstash REST over `fetch`, one wraps a node-redis client. Neither retries: retries belong to
 * the engine, which knows which operations are idempotent.
 */
export interface Backend {
  readonly kind: "rest" | "tcp";
  /** Runs one command. Rejects with `TransportError` or `ReplyError`, never returns an error as a value. */
  command(args: readonly (string | number)[], signal: AbortSignal): Promise<unknown>;
  /**
   * Push, where the backend offers it (Upstash's `/subscribe/<channel>` Server-Sent Events).
   * Yields Upstash's event lines: `subscribe,<channel>,<count>` once the subscription is live,
   * then `message,<channel>,<payload>` per message. Ends or throws when the stream breaks;
   * aborting `signal` closes it. Absent: waiters poll.
   */
  subscribe?(channel: string, signal: AbortSignal): AsyncIterable<string>;
  /**
   * A cluster only: the node (its address) that serves `key`'s slot now, by the client's slot
   * map, so that the engine keeps one server-time estimate per node. Absent: one server.
   */
  nodeOf?(key: string): string | undefined;
  /**
   * A cluster only: as `command`, and which node answered: the address `nodeOf` gave when the
   * request ran where it was sent, `null` when it was redirected (MOVED, ASK) and ran elsewhere.
   */
  commandAt?(
    args: readonly (string | number)[],
    signal: AbortSignal,
  ): Promise<{ readonly reply: unknown; readonly at: string | null }>;
  /**
   * Push on every channel matching a glob `pattern` (Upstash's `/psubscribe/<pattern>`): one stream
   * serves all of a client's waiters on one name. Yields `psubscribe,<pattern>,<count>` once live,
   * then `pmessage,<pattern>,<channel>,<payload>` per message; ends, throws and closes as
   * `subscribe` does. Absent: each waiter subscribes to its own channel.
   */
  psubscribe?(pattern: string, signal: AbortSignal): AsyncIterable<string>;
}

/**
 * The request may or may not have run (timeout, dropped connection, 5xx, network error), or was
 * refused before running (`executed: false`: 4xx, a closed client). The engine retries only the
 * first kind, and only for operations that carry an operation id.
 */
export class TransportError extends Error {
  readonly ambiguous: boolean;
  readonly status: number | undefined;
  constructor(message: string, options: { ambiguous: boolean; status?: number; cause?: unknown }) {
    super(message, { cause: options.cause });
    this.name = "TransportError";
    this.ambiguous = options.ambiguous;
    this.status = options.status;
  }
}

/** Redis answered with an error reply (e.g. NOSCRIPT, WRONGTYPE, a script error). */
export class ReplyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ReplyError";
  }
}

export function isNoScript(error: unknown): boolean {
  return error instanceof ReplyError && error.message.toUpperCase().includes("NOSCRIPT");
}

/**
 * Redis Cluster refused the command before running it: TRYAGAIN (its slot is migrating and the
 * keys are split between two nodes) or CLUSTERDOWN. Nothing ran, so it may be sent again.
 */
export function isClusterRefusal(error: unknown): boolean {
  return error instanceof ReplyError && /\b(TRYAGAIN|CLUSTERDOWN)\b/.test(error.message);
}
