/**
 * Reference model of the Semaphore without waiters (tryAcquire never queues): what the server
 * must answer and hold after any sequence of set / add / acquire / release operations.
 */
export interface ModelSemaphoreHold {
  readonly permits: number;
  released: boolean;
}

export class SemaphoreModel {
  set = false;
  available = 0;
  total = 0;
  readonly holds: ModelSemaphoreHold[] = [];

  trySetPermits(n: number): boolean {
    if (this.set) return false;
    this.set = true;
    this.available = n;
    this.total = n;
    return true;
  }

  addPermits(delta: number): "applied" | "refused" {
    if (this.total + delta < 0) return "refused";
    this.set = true;
    this.total += delta;
    this.available += delta;
    return "applied";
  }

  tryAcquire(permits: number): ModelSemaphoreHold | null {
    if (!this.set || this.available < permits) return null;
    this.available -= permits;
    const hold = { permits, released: false };
    this.holds.push(hold);
    return hold;
  }

  /** A free release (anyone may release) of `permits`. */
  release(permits: number): "applied" | "refused" {
    if (this.available + permits > this.total) return "refused";
    this.available += permits;
    return "applied";
  }

  /** `hold.release()`: once per hold; refused when others already gave its permits back. */
  releaseHold(hold: ModelSemaphoreHold): "applied" | "refused" | "not-held" {
    if (hold.released) return "not-held";
    hold.released = true;
    return this.release(hold.permits);
  }
}
