import { TransportError } from "./backend.ts";

/**
 * HTTP statuses by which a backend says it has no `/subscribe` at all (an Upstash-compatible
 * bridge without push, a proxy that forwards only commands), as opposed to a stream that broke.
 * 501 is a server saying so outright.
 */
const REFUSING_STATUSES = new Set([400, 404, 405, 501]);

/**
 * The backend refused the push stream: it answered `/subscribe` with 400, 404, 405 or 501, or
 * with something that is not an event stream. Asking again soon would cost a request for the
 * same answer, so the client remembers it (`push.refusedBackoffMs`). Never ambiguous: no
 * command ran.
 */
export class PushRefusedError extends TransportError {
  constructor(message: string, status: number | undefined) {
    super(message, { ambiguous: false, ...(status === undefined ? {} : { status }) });
    this.name = "PushRefusedError";
  }
}

/** Whether a push stream's failure says the backend has no push (not a transient break). */
export function isPushRefusal(error: unknown): boolean {
  if (error instanceof PushRefusedError) return true;
  // A custom `Backend` may report the refusal as a plain non-ambiguous TransportError.
  return (
    error instanceof TransportError &&
    !error.ambiguous &&
    error.status !== undefined &&
    REFUSING_STATUSES.has(error.status)
  );
}

/** The error for a `/subscribe` answer, or undefined when it is a usable event stream. */
export function refusalOfAnswer(
  response: Response,
  kind: "subscribe" | "psubscribe" = "subscribe",
): PushRefusedError | undefined {
  if (REFUSING_STATUSES.has(response.status))
    return new PushRefusedError(`${kind}: HTTP ${response.status}`, response.status);
  if (!response.ok) return undefined;
  const type = response.headers.get("content-type") ?? "";
  if (response.body === null || !type.toLowerCase().startsWith("text/event-stream"))
    return new PushRefusedError(
      `${kind}: HTTP ${response.status} answered ${type === "" ? "without a content type" : type}, not an event stream`,
      response.status,
    );
  return undefined;
}
