import { ErrorReply, RESP_TYPES } from "redis";

/**
 * Per-command node-redis option: bulk and status strings arrive as Buffers, so binary values
 * survive byte for byte until they are encoded for the response.
 */
export const BUFFER_REPLIES = Object.freeze({
  typeMapping: { [RESP_TYPES.BLOB_STRING]: Buffer, [RESP_TYPES.SIMPLE_STRING]: Buffer },
});

/** A JSON value as Upstash puts it in `result`. */
export type JsonReply = string | number | null | JsonReply[];

/** How strings are written: UTF-8 text (the default) or base64 (`Upstash-Encoding: base64`). */
export type StringEncoding = "utf8" | "base64";

/** Reads the `Upstash-Encoding` request header. */
export function encodingOf(request: Request): StringEncoding {
  return request.headers.get("upstash-encoding")?.trim().toLowerCase() === "base64"
    ? "base64"
    : "utf8";
}

/**
 * Converts a node-redis reply to the JSON Upstash returns: integers as numbers, nil as null,
 * arrays element by element, strings as text — or, with base64, every string is base64 of its
 * bytes except a top-level `OK` (Upstash: "all strings in the response will be base64 encoded,
 * except for the OK response"; @upstash/redis `decode()` spares `OK` only at the top level and
 * base64-decodes every string inside arrays, so a nested `OK` must be encoded).
 */
export function toJsonReply(reply: unknown, encoding: StringEncoding): JsonReply {
  if (encoding === "base64" && isOk(reply)) return "OK";
  return convert(reply, encoding);
}

function convert(reply: unknown, encoding: StringEncoding): JsonReply {
  if (reply === null || reply === undefined) return null;
  if (Buffer.isBuffer(reply)) {
    return encoding === "base64" ? reply.toString("base64") : reply.toString("utf8");
  }
  if (typeof reply === "string" || reply instanceof String) {
    return convert(Buffer.from(String(reply), "utf8"), encoding);
  }
  if (typeof reply === "number") return reply;
  if (typeof reply === "bigint") return Number(reply);
  // RESP3 only (a client created with RESP: 3): booleans are integers and maps are flat arrays
  // in RESP2, which is what Upstash speaks over REST.
  if (typeof reply === "boolean") return reply ? 1 : 0;
  if (reply instanceof ErrorReply) return convert(reply.message, encoding);
  if (Array.isArray(reply)) return reply.map((item) => convert(item, encoding));
  if (reply instanceof Set) return [...reply].map((item) => convert(item, encoding));
  if (reply instanceof Map) {
    return [...reply].flatMap(([k, v]) => [convert(k, encoding), convert(v, encoding)]);
  }
  if (typeof reply === "object") {
    return Object.entries(reply).flatMap(([k, v]) => [convert(k, encoding), convert(v, encoding)]);
  }
  return convert(String(reply), encoding);
}

function isOk(reply: unknown): boolean {
  return (
    (Buffer.isBuffer(reply) && reply.length === 2 && reply.toString("latin1") === "OK") ||
    reply === "OK"
  );
}
