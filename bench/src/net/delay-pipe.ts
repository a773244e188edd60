/**
 * Delivers chunks after a one-way delay, in order (a TCP stream never reorders, so a chunk waits
 * for the one before it even when its own delay is shorter).
 */
export class DelayPipe<T> {
  #last = 0;
  #closed = false;

  constructor(
    private readonly deliver: (item: T) => void,
    private readonly delayMs: () => number,
  ) {}

  push(item: T): void {
    const ms = this.delayMs();
    if (ms <= 0 && this.#last <= performance.now()) {
      this.deliver(item);
      return;
    }
    const at = Math.max(this.#last, performance.now() + ms);
    this.#last = at;
    setTimeout(() => {
      if (!this.#closed) this.deliver(item);
    }, at - performance.now());
  }

  /** Delivers `then` after everything already queued. */
  after(then: () => void): void {
    setTimeout(then, Math.max(0, this.#last - performance.now()));
  }

  close(): void {
    this.#closed = true;
  }
}
