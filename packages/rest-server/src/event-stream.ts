/**
 * The body of one Server-Sent Events response. Lines sent before `release()` are held back, so
 * an event that raced ahead of the stream's opening lines is written after them.
 */
export class EventStream {
  readonly body: ReadableStream<Uint8Array>;
  #controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  #held: string[] | undefined = [];
  #closed = false;
  readonly #encoder = new TextEncoder();

  /** `onCancel` runs when the reader goes away (the client disconnected). */
  constructor(onCancel: () => void) {
    this.body = new ReadableStream<Uint8Array>({
      start: (controller) => {
        this.#controller = controller;
      },
      cancel: onCancel,
    });
  }

  /** Queues one event: a `data:` line and the blank line that ends an event. */
  send(line: string): void {
    if (this.#closed) return;
    if (this.#held !== undefined) this.#held.push(line);
    else this.#controller?.enqueue(this.#encoder.encode(`data: ${line}\n\n`));
  }

  /** Writes `first`, then everything held, and stops holding. */
  release(first: readonly string[]): void {
    const held = this.#held ?? [];
    this.#held = undefined;
    for (const line of [...first, ...held]) this.send(line);
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    try {
      this.#controller?.close();
    } catch {
      // already cancelled by the reader
    }
  }
}
