import type { Context } from "hono";
import type { HttpBindings } from "@hono/node-server";

/**
 * Raised to drop a request when there is no socket to destroy (the app called through
 * `app.request()` in tests): `app.request` then rejects, the in-process stand-in for a network
 * error.
 */
export class ConnectionDroppedError extends Error {
  override readonly name = "ConnectionDroppedError";
  constructor() {
    super("connection dropped by an injected fault");
  }
}

// @hono/node-server writes nothing for a response carrying this header (its X_ALREADY_SENT):
// the socket is already gone and there is nothing to say.
const ALREADY_SENT = "x-hono-already-sent";

/** Destroys the client's socket so it gets no HTTP response at all. */
export function dropConnection(c: Context): Response {
  const socket = (c.env as Partial<HttpBindings> | undefined)?.incoming?.socket;
  if (socket === undefined) throw new ConnectionDroppedError();
  socket.destroy();
  return new Response(null, { headers: { [ALREADY_SENT]: "true" } });
}
