/**
 * Reference model of the reentrant Lock: what the server must end up with after any sequence of
 * operations by several owners. Plain data, no time: lease expiry is an explicit operation.
 */
export interface ModelHold {
  readonly owner: number;
  readonly fence: number;
  released: boolean;
}

export class LockModel {
  owner: number | null = null;
  count = 0;
  fence = 0;
  lastFence = 0;
  readonly holds: ModelHold[] = [];

  /** tryAcquire by `owner`: "granted" (new fence), "reentered" (same fence) or "busy". */
  tryAcquire(owner: number): "granted" | "reentered" | "busy" {
    if (this.owner === null) {
      this.owner = owner;
      this.count = 1;
      this.fence = ++this.lastFence;
      this.holds.push({ owner, fence: this.fence, released: false });
      return "granted";
    }
    if (this.owner !== owner) return "busy";
    this.count++;
    this.holds.push({ owner, fence: this.fence, released: false });
    return "reentered";
  }

  /** release of one hold: "released" or "not-held". */
  release(hold: ModelHold): "released" | "not-held" {
    if (hold.released) return "not-held";
    hold.released = true;
    if (this.owner !== hold.owner || this.fence !== hold.fence) return "not-held";
    this.count--;
    if (this.count === 0) this.owner = null;
    return "released";
  }

  extend(hold: ModelHold): "extended" | "not-held" {
    return !hold.released && this.owner === hold.owner && this.fence === hold.fence
      ? "extended"
      : "not-held";
  }

  expire(): void {
    this.owner = null;
    this.count = 0;
  }

  holdCount(owner: number): number {
    return this.owner === owner ? this.count : 0;
  }
}
