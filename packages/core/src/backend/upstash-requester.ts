import { ReplyError, TransportError, type Backend } from "./backend.ts";
import { neverSent } from "./fetch-failure.ts";

/** `@upstash/redis`'s public `Requester` shape. */
export interface RequesterLike {
  request(req: {
    body: unknown;
    signal?: AbortSignal;
  }): Promise<{ result?: unknown; error?: string }>;
}

/**
 * Fallback for an `@upstash/redis` client whose credentials are not visible (a custom requester).
 * The requester bypasses auto-pipelining and deserialization; an aborted call comes back as a
 * *successful* `"Aborted"` result, so the signal is checked before trusting any value. Its own
 * retries of thrown fetches (up to 6 attempts by default, about 4 s) run inside one of our
 * requests and are bounded by our request timeout; a fetch error that provably never reached
 * the server (its `cause.code`) is reported as such.
 */
export function upstashRequesterBackend(requester: RequesterLike): Backend {
  return {
    kind: "rest",
    async command(args, signal) {
      let reply: { result?: unknown; error?: string };
      try {
        reply = await requester.request({ body: args, signal });
      } catch (cause) {
        const message = withoutCommand(cause instanceof Error ? cause.message : String(cause));
        // Error replies, Redis Cluster's included (behind a rest-server fronting a cluster).
        if (/^ERR|NOSCRIPT|WRONGTYPE|BUSY|TRYAGAIN|CLUSTERDOWN|CROSSSLOT/i.test(message))
          throw new ReplyError(message);
        // The cause is rebuilt from the cleaned message: the original quotes the command.
        const why = signal.aborted ? undefined : neverSent(cause);
        throw new TransportError(why === undefined ? "request failed" : `cannot reach: ${why}`, {
          ambiguous: why === undefined,
          cause: cause instanceof Error ? new Error(message) : cause,
        });
      }
      if (signal.aborted)
        throw new TransportError("request aborted", { ambiguous: true, cause: signal.reason });
      if (reply.error !== undefined) throw new ReplyError(reply.error);
      return reply.result;
    },
  };
}

/**
 * `@upstash/redis` appends `, command was: [...]` to its errors: every argument, owner ids (the
 * bearer secrets of holds) included. Errors reach callers, events and logs, so that part goes.
 */
export function withoutCommand(message: string): string {
  return message.replace(/,? command was: [\s\S]*$/, "");
}
