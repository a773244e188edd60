/**
 * Reference model of the FairLock at the level of its scripts: what the server must answer and
 * hold after any sequence of single attempts by several owners. Plain data, no time: a lease
 * running out (`expire`) and a waiter missing its declared deadline (`die`) are explicit steps.
 */
export type AttemptAnswer = "granted" | "reentered" | "busy";

export interface ModelHolder {
  owner: number;
  count: number;
  /** Sequence number of the grant: fences must increase in this order. */
  grant: number;
  /** A direct grant to the queue head that its owner has not claimed yet. */
  pending: boolean;
}

export class FairLockModel {
  holder: ModelHolder | null = null;
  /** Waiters in arrival order, including ones that missed their deadline but were not dropped yet. */
  queue: number[] = [];
  readonly dead = new Set<number>();
  grants = 0;

  /** One attempt; `queue`: join (or stay in) the queue when busy. Returns the answer and, when busy, the position. */
  acquire(owner: number, queue: boolean): { answer: AttemptAnswer; position: number } {
    if (queue && this.queue.includes(owner)) this.dead.delete(owner); // polling now: alive
    if (this.holder === null && this.grantHead() === null) {
      this.holder = { owner, count: 1, grant: ++this.grants, pending: false };
      return this.granted(owner, "granted");
    }
    const holder = this.holder!;
    if (holder.owner === owner) {
      if (holder.pending) {
        holder.pending = false;
        return this.granted(owner, "granted");
      }
      holder.count++;
      return this.granted(owner, "reentered");
    }
    // try-only: no new place, but a waiter still queued is told its place (so it knows to leave)
    if (!queue) return { answer: "busy", position: this.queue.indexOf(owner) + 1 };
    if (!this.queue.includes(owner)) this.queue.push(owner);
    this.dead.delete(owner);
    return { answer: "busy", position: this.queue.indexOf(owner) + 1 };
  }

  /** Release of one level by `owner`, expecting the hold of grant `grant`. */
  release(owner: number, grant: number): "released" | "not-held" {
    const h = this.holder;
    if (h === null || h.owner !== owner || h.grant !== grant || h.pending) return "not-held";
    h.count--;
    if (h.count === 0) {
      this.holder = null;
      this.grantHead();
    }
    return "released";
  }

  extend(owner: number, grant: number): "extended" | "not-held" {
    const h = this.holder;
    return h !== null && h.owner === owner && h.grant === grant && !h.pending
      ? "extended"
      : "not-held";
  }

  /** The holder's lease (or a grant's reservation) ran out. */
  expire(): void {
    this.holder = null;
  }

  /** `owner` stopped polling and its declared deadline passed. */
  die(owner: number): void {
    if (this.queue.includes(owner)) this.dead.add(owner);
  }

  /** `owner` gave up (abort or timeout): it leaves the queue and drops a grant it did not claim. */
  leave(owner: number): void {
    this.removeFromQueue(owner);
    if (this.holder?.owner === owner && this.holder.pending) {
      this.holder = null;
      this.grantHead();
    }
  }

  holdCount(owner: number): number {
    return this.holder?.owner === owner && !this.holder.pending ? this.holder.count : 0;
  }

  liveWaiters(): number {
    return this.queue.filter((o) => !this.dead.has(o)).length;
  }

  private granted(owner: number, answer: AttemptAnswer) {
    this.removeFromQueue(owner);
    return { answer, position: 0 };
  }

  private removeFromQueue(owner: number): void {
    this.queue = this.queue.filter((o) => o !== owner);
    this.dead.delete(owner);
  }

  /** Strict FIFO hand-off to the first live waiter; dead ones are dropped on the way. */
  private grantHead(): number | null {
    while (this.queue.length > 0) {
      const head = this.queue.shift()!;
      if (this.dead.delete(head)) continue;
      this.holder = { owner: head, count: 1, grant: ++this.grants, pending: true };
      return head;
    }
    return null;
  }
}
