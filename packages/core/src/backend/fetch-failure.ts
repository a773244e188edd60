/**
 * Why a `fetch` that threw provably never reached the server, or `undefined` when it may have.
 *
 * Only Node's fetch (undici) tells: its `TypeError: fetch failed` carries the socket error as
 * `cause` (`cause.code`: ECONNREFUSED, ENOTFOUND, a certificate error, …; an `AggregateError`
 * when every address of a host was tried). Each of those fails before the request is written:
 * nothing ran, so the caller may be told at once. workerd's fetch errors carry no cause, and a
 * reset or a timeout may come after the request was sent: those stay ambiguous.
 */
export function neverSent(error: unknown): string | undefined {
  const cause = (error as { cause?: unknown } | null)?.cause;
  if (typeof cause !== "object" || cause === null) return undefined;
  const errors = (cause as { errors?: unknown }).errors;
  if (Array.isArray(errors) && errors.length > 0) {
    const reasons = errors.map(describeCause);
    return reasons.every((r) => r !== undefined) ? [...new Set(reasons)].join("; ") : undefined;
  }
  return describeCause(cause);
}

/** Socket errors raised before any byte of the request is written, by code. */
const BEFORE_SENDING: Readonly<Record<string, string>> = {
  ECONNREFUSED: "connection refused",
  ENOTFOUND: "no such host (DNS)",
  EAI_AGAIN: "DNS lookup failed (temporary)",
  EAI_FAIL: "DNS lookup failed",
  EAI_NONAME: "no such host (DNS)",
  EHOSTUNREACH: "host unreachable",
  ENETUNREACH: "network unreachable",
  EADDRNOTAVAIL: "address not available",
  UND_ERR_CONNECT_TIMEOUT: "connect timed out",
  ERR_INVALID_URL: "invalid URL",
  ERR_TLS_CERT_ALTNAME_INVALID: "TLS certificate does not match the host",
  ERR_SSL_WRONG_VERSION_NUMBER: "TLS handshake failed (is the port plain HTTP?)",
  DEPTH_ZERO_SELF_SIGNED_CERT: "TLS certificate is self-signed",
  SELF_SIGNED_CERT_IN_CHAIN: "TLS certificate chain is self-signed",
};

/** OpenSSL's certificate verification failures (`CERT_HAS_EXPIRED`, `UNABLE_TO_VERIFY_LEAF_SIGNATURE`, …). */
const CERTIFICATE = /^(CERT_|UNABLE_TO_)/;

/** undici refuses these before connecting; they carry no code. */
const REFUSED_BY_FETCH = new Set(["bad port", "unknown scheme", "Invalid URL"]);

function describeCause(cause: unknown): string | undefined {
  if (typeof cause !== "object" || cause === null) return undefined;
  const { code, message } = cause as { code?: unknown; message?: unknown };
  if (typeof code === "string") {
    const known = BEFORE_SENDING[code];
    if (known !== undefined) return `${known}, ${code}`;
    if (CERTIFICATE.test(code)) return `TLS certificate rejected, ${code}`;
    return undefined;
  }
  return typeof message === "string" && REFUSED_BY_FETCH.has(message)
    ? `refused by fetch: ${message}`
    : undefined;
}
