import { PushEvents, type GrantStream } from "../wait/push-stream.ts";

/** How long one read of a stream waits before it is simply asked again, ms. */
const READ_MS = 60_000;

/**
 * A multi-lock waiter's streams read as one: its first name's (where it queues) and those of the
 * later names it joined. A message is tagged with its stream's index (`<index>:<payload>`).
 * `live` and `closed` are the first stream's, since the wait loop plans around the name the
 * waiter queued at; a later stream that breaks only loses its messages (the waiter then asks that
 * name itself, as without push).
 */
export class GrantStreams extends PushEvents implements GrantStream {
  readonly #streams: readonly GrantStream[];
  readonly #stop = new AbortController();

  constructor(streams: readonly GrantStream[]) {
    super();
    this.#streams = streams;
    streams.forEach((stream, index) => void this.#pump(stream, index));
  }

  get live(): boolean {
    return this.#streams[0]?.live === true;
  }

  get closed(): boolean {
    return this.#streams[0]?.closed !== false;
  }

  close(): void {
    this.#stop.abort();
    for (const stream of this.#streams) stream.close();
  }

  async #pump(stream: GrantStream, index: number): Promise<void> {
    for (;;) {
      let event;
      try {
        event = await stream.next(READ_MS, this.#stop.signal, "read grant streams");
      } catch {
        return; // closed by `close()`
      }
      if (event.type === "message") this.push({ ...event, payload: `${index}:${event.payload}` });
      else if (index === 0 && event.type !== "timeout") this.push(event);
      if (event.type === "closed") return;
    }
  }
}

/** A tagged message's stream index and payload; `undefined` when it carries no tag. */
export function untag(payload: string): { index: number; payload: string } | undefined {
  const colon = payload.indexOf(":");
  const index = Number(payload.slice(0, colon));
  if (colon < 1 || !Number.isInteger(index)) return undefined;
  return { index, payload: payload.slice(colon + 1) };
}
