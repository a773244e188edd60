import { InvalidArgumentError } from "../errors.ts";
import { KEEPER_PATH_PREFIX } from "./protocol.ts";
import type { KeeperTransport } from "./transport.ts";

/** Options of `httpTransport`. */
export interface HttpTransportOptions {
  /** Base URL of your deployed lease-keeper Worker (`leaseKeeperWorker()` + `LeaseKeeper`), e.g. `https://lease-keeper.acme.workers.dev`. */
  readonly url: string;
  /** The shared secret (`EDGELOCK_KEEPER_SECRET` of the keeper Worker). */
  readonly secret: string;
  /** @default globalThis.fetch */
  readonly fetch?: typeof fetch;
}

/**
 * Talks to the keeper Worker over HTTPS, from anywhere (Vercel, Node). Plain HTTP is refused
 * except to localhost, because the bearer secret and the lease (its owner id) travel in the request.
 */
export function httpTransport(options: HttpTransportOptions): KeeperTransport {
  const base = checkUrl(options.url);
  if (typeof options.secret !== "string" || options.secret.length === 0) {
    throw new InvalidArgumentError(
      "secret",
      "must be the non-empty EDGELOCK_KEEPER_SECRET of the keeper Worker",
    );
  }
  const doFetch =
    options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  return {
    send(objectName, op, body, signal) {
      return doFetch(`${base}${KEEPER_PATH_PREFIX}${objectName}/${op}`, {
        method: "POST",
        headers: { authorization: `Bearer ${options.secret}`, "content-type": "application/json" },
        body,
        signal,
      });
    },
  };
}

function checkUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new InvalidArgumentError(
      "url",
      `must be an absolute URL of the keeper Worker, got "${url}"`,
    );
  }
  const local =
    parsed.hostname === "localhost" ||
    parsed.hostname === "127.0.0.1" ||
    parsed.hostname === "[::1]";
  if (parsed.protocol !== "https:" && !(parsed.protocol === "http:" && local)) {
    throw new InvalidArgumentError(
      "url",
      "must use https:// (http:// only for localhost): the secret and the lease travel in it",
    );
  }
  return parsed.href.replace(/\/+$/, "");
}
