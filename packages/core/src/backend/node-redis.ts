import { ReplyError, TransportError, type Backend } from "./backend.ts";

/** The part of a node-redis (v4/v5) client the engine uses. */
export interface NodeRedisLike {
  sendCommand(args: string[]): Promise<unknown>;
  readonly isOpen?: boolean;
}

/**
 * node-redis over TCP. A command cannot be recalled once written, so a timeout or abort here
 * leaves the outcome unknown: it is reported as an ambiguous `TransportError`.
 */
export function nodeRedisBackend(client: NodeRedisLike): Backend {
  return {
    kind: "tcp",
    async command(args, signal) {
      if (client.isOpen === false)
        throw new TransportError("client is closed", { ambiguous: false });
      const pending = client.sendCommand(args.map(String));
      try {
        return normalise(await raceSignal(pending, signal));
      } catch (error) {
        throw commandError(error);
      }
    },
  };
}

/** A failed command as the seam reports it: the server's error replies, else a broken connection. */
export function commandError(error: unknown): Error {
  if (error instanceof TransportError || error instanceof ReplyError) return error;
  if (isReplyError(error)) return new ReplyError((error as Error).message);
  return new TransportError("connection error", { ambiguous: true, cause: error });
}

function isReplyError(error: unknown): boolean {
  // node-redis' ErrorReply (and SimpleError in v5) are the server's own error replies.
  const name = (error as { constructor?: { name?: string } } | null)?.constructor?.name;
  return name === "ErrorReply" || name === "SimpleError";
}

/** RESP3/RESP2 replies to the REST shapes: bulk strings as strings, integers as numbers. */
export function normalise(reply: unknown): unknown {
  if (Array.isArray(reply)) return reply.map(normalise);
  if (typeof reply === "bigint") return Number(reply);
  if (reply instanceof Uint8Array) return new TextDecoder().decode(reply);
  return reply;
}

export function raceSignal<T>(pending: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    pending.catch(() => undefined);
    return Promise.reject(
      new TransportError("request aborted", { ambiguous: true, cause: signal.reason }),
    );
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () =>
      reject(new TransportError("request aborted", { ambiguous: true, cause: signal.reason }));
    signal.addEventListener("abort", onAbort, { once: true });
    pending.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}
