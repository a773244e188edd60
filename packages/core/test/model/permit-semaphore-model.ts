/**
 * Reference model of the PermitExpirableSemaphore without waiters: the total, and which permits
 * are live. Expiry is an explicit operation (the server's clock is not modelled).
 */
export interface ModelPermit {
  readonly index: number;
  live: boolean;
  /** The holder has released it, or learned it was gone: further release is "not-held" locally. */
  done: boolean;
}

export class PermitSemaphoreModel {
  set = false;
  total = 0;
  readonly permits: ModelPermit[] = [];

  get live(): number {
    return this.permits.filter((p) => p.live).length;
  }

  get available(): number {
    return this.total - this.live;
  }

  trySetPermits(n: number): boolean {
    if (this.set) return false;
    this.set = true;
    this.total = n;
    return true;
  }

  addPermits(delta: number): "applied" | "refused" {
    if (this.total + delta < 0) return "refused";
    this.set = true;
    this.total += delta;
    return "applied";
  }

  tryAcquire(): ModelPermit | null {
    if (this.available <= 0) return null;
    const permit = { index: this.permits.length, live: true, done: false };
    this.permits.push(permit);
    return permit;
  }

  release(permit: ModelPermit): "released" | "not-held" {
    if (permit.done) return "not-held";
    permit.done = true;
    if (!permit.live) return "not-held";
    permit.live = false;
    return "released";
  }

  expire(permit: ModelPermit): void {
    permit.live = false;
  }
}
