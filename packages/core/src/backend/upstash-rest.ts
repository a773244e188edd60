import { ReplyError, TransportError, type Backend } from "./backend.ts";
import { neverSent } from "./fetch-failure.ts";
import { validateRestToken, validateRestUrl } from "./rest-url.ts";
import { restStreams, type RestStreams } from "./rest-streams.ts";
import { validateObject } from "../validate.ts";

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
 *
 * The URL is checked here, when the client is made (`InvalidArgumentError` naming `url`: a
 * `redis://` URL, a string that is no URL). A request that provably never reached the server
 * (connection refused, DNS failure, TLS rejected: what Node's fetch tells by `cause.code`) is a
 * non-ambiguous `TransportError`, which the engine reports at once as a `BackendError`.
 * @throws InvalidArgumentError when `url` or `token` cannot be right.
 */
export function upstashRestBackend(options: UpstashRestOptions): Backend {
  const o = validateObject("options", options);
  return restBackend(
    validateRestUrl("options.url", o["url"]),
    validateRestToken("options.token", o["token"]),
    restStreams,
  );
}

/**
 * `upstashRestBackend` for a URL and token already validated (by `validateRestUrl`). `streams`:
 * its push (`rest-streams.ts`); without it the backend offers none, and waiters poll.
 */
export function restBackend(url: string, token: string, streams?: RestStreams): Backend {
  const origin = new URL(url).origin;
  const authorization = `Bearer ${token}`;
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
        if (signal.aborted) throw new TransportError("request aborted", { ambiguous: true, cause });
        const why = neverSent(cause);
        if (why !== undefined)
          throw new TransportError(`cannot reach ${origin}: ${why}`, { ambiguous: false, cause });
        throw new TransportError(`network error${detail(cause)}`, { ambiguous: true, cause });
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
    ...streams?.(url, authorization),
  };
}

/** The socket error under fetch's generic "fetch failed", for the message: ` (UND_ERR_SOCKET: other side closed)`. */
function detail(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | null)?.cause;
  if (typeof cause !== "object" || cause === null) return "";
  const parts = [cause.code, cause.message].filter((p) => typeof p === "string" && p !== "");
  return parts.length > 0 ? ` (${parts.join(": ")})` : "";
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
