import { ReplyError, TransportError, type Backend } from "./backend.ts";
import { sseData } from "./sse.ts";

export interface UpstashRestOptions {
  /** `UPSTASH_REDIS_REST_URL`, e.g. `https://eu1-xyz.upstash.io` or a local rest-server. */
  readonly url: string;
  /** `UPSTASH_REDIS_REST_TOKEN`. */
  readonly token: string;
}

/**
 * Upstash REST over plain `fetch`: one POST per command, no auto-pipelining, no base64 (our
 * replies are integers and ASCII), no JSON deserialization of strings, no transport retries.
 * It keeps Upstash's read-your-writes sync token like the official client does. Push is Upstash's
 * `/subscribe/<channel>` Server-Sent-Events stream (one HTTP request for as long as it stays open).
 */
export function upstashRestBackend(options: UpstashRestOptions): Backend {
  const url = options.url.replace(/\/+$/, "");
  const authorization = `Bearer ${options.token}`;
  let syncToken = "";
  return {
    kind: "rest",
    async command(args, signal) {
      const headers: Record<string, string> = { authorization, "content-type": "application/json" };
      if (syncToken) headers["upstash-sync-token"] = syncToken;
      let response: Response;
      try {
        response = await fetch(url, {
          method: "POST",
          headers,
          body: JSON.stringify(args),
          signal,
        });
      } catch (cause) {
        throw new TransportError(signal.aborted ? "request aborted" : "network error", {
          ambiguous: true,
          cause,
        });
      }
      syncToken = response.headers.get("upstash-sync-token") ?? syncToken;
      const body = await readJson(response, signal);
      if (response.ok && body !== undefined && "result" in body) return body.result;
      if (response.status >= 500 || body === undefined) {
        throw new TransportError(`HTTP ${response.status}`, {
          ambiguous: true,
          status: response.status,
        });
      }
      if (response.status === 400 && typeof body.error === "string")
        throw new ReplyError(body.error);
      throw new TransportError(`HTTP ${response.status}: ${String(body.error ?? "")}`, {
        ambiguous: false,
        status: response.status,
      });
    },
    async *subscribe(channel, signal) {
      const headers = { authorization, accept: "text/event-stream" };
      const response = await fetch(`${url}/subscribe/${encodeURIComponent(channel)}`, {
        headers,
        signal,
      });
      if (!response.ok || response.body === null) {
        await response.body?.cancel().catch(() => undefined);
        throw new TransportError(`subscribe: HTTP ${response.status}`, {
          ambiguous: false,
          status: response.status,
        });
      }
      yield* sseData(response.body);
    },
  };
}

async function readJson(
  response: Response,
  signal: AbortSignal,
): Promise<{ result?: unknown; error?: unknown } | undefined> {
  let text: string;
  try {
    text = await response.text();
  } catch (cause) {
    // The body broke off: the command ran or not, we cannot tell.
    throw new TransportError(signal.aborted ? "request aborted" : "response lost", {
      ambiguous: true,
      cause,
    });
  }
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === "object" && parsed !== null
      ? (parsed as { result?: unknown })
      : undefined;
  } catch {
    return undefined;
  }
}
