import { TransportError, type Backend } from "./backend.ts";
import { refusalOfAnswer } from "./push-refused.ts";
import { sseData } from "./sse.ts";

/** The push of a REST backend: its `subscribe` and `psubscribe` streams, for a URL and auth header. */
export type RestStreams = (
  url: string,
  authorization: string,
) => Required<Pick<Backend, "subscribe" | "psubscribe">>;

/**
 * Upstash's push: `/subscribe/<channel>` and `/psubscribe/<pattern>` Server-Sent-Events streams
 * (one HTTP request each, for as long as it stays open). Kept apart from the REST backend so that
 * a Worker built on the polling entry (`@edgelock/core/lock-polling`) ships none of it.
 */
export const restStreams: RestStreams = (url, authorization) => {
  async function* stream(kind: "subscribe" | "psubscribe", target: string, signal: AbortSignal) {
    const headers = { authorization, accept: "text/event-stream" };
    const response = await fetch(`${url}/${kind}/${encodeURIComponent(target)}`, {
      headers,
      signal,
    });
    // A backend without push (404, 405, …, or an answer that is no event stream) is told apart
    // from a broken stream, so the client can stop asking (see `rememberPushRefusal`).
    const refused = refusalOfAnswer(response, kind);
    if (refused !== undefined || !response.ok || response.body === null) {
      await response.body?.cancel().catch(() => undefined);
      throw (
        refused ??
        new TransportError(`${kind}: HTTP ${response.status}`, {
          ambiguous: false,
          status: response.status,
        })
      );
    }
    yield* sseData(response.body);
  }
  return {
    subscribe: (channel, signal) => stream("subscribe", channel, signal),
    psubscribe: (pattern, signal) => stream("psubscribe", pattern, signal),
  };
};
