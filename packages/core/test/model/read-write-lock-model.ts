/**
 * Reference model of the ReadWriteLock at the level of its scripts. Plain data, no time: a lease
 * running out and a writer missing its declared deadline are explicit steps. Every grant (a
 * writer's, or a new read session) takes the next number of one sequence: fences follow it.
 */
export type RwAnswer = "granted" | "reentered" | "busy" | "upgrade";

interface Writer {
  owner: number;
  count: number;
  grant: number;
  pending: boolean;
}

export class ReadWriteLockModel {
  writer: Writer | null = null;
  readonly readers = new Map<number, { count: number; grant: number }>();
  /** Queued writers in arrival order, and those among them that missed their deadline. */
  queue: number[] = [];
  readonly dead = new Set<number>();
  grants = 0;

  write(owner: number, queue: boolean): { answer: RwAnswer; position: number } {
    if (queue && this.queue.includes(owner)) this.dead.delete(owner);
    if (this.writer === null && this.readers.size === 0 && this.grantHead() === null) {
      this.writer = { owner, count: 1, grant: ++this.grants, pending: false };
      return this.left(owner, "granted");
    }
    const w = this.writer;
    if (w !== null && w.owner === owner) {
      if (w.pending) {
        w.pending = false;
        return this.left(owner, "granted");
      }
      w.count++;
      return this.left(owner, "reentered");
    }
    if (this.readers.has(owner)) return this.left(owner, "upgrade");
    // try-only: no new place, but a waiter still queued is told its place (so it knows to leave)
    if (!queue) return { answer: "busy", position: this.queue.indexOf(owner) + 1 };
    if (!this.queue.includes(owner)) this.queue.push(owner);
    this.dead.delete(owner);
    return { answer: "busy", position: this.queue.indexOf(owner) + 1 };
  }

  read(owner: number): RwAnswer {
    const mine = this.readers.get(owner);
    if (mine) {
      mine.count++;
      return "reentered";
    }
    let admit: boolean;
    if (this.writer !== null) {
      admit = this.writer.owner === owner && !this.writer.pending; // downgrade
    } else if (this.pruneDeadHead()) {
      admit = false; // writer preference
      if (this.readers.size === 0) this.grantHead();
    } else {
      admit = true;
    }
    if (!admit) return "busy";
    this.readers.set(owner, { count: 1, grant: ++this.grants });
    return "granted";
  }

  releaseWrite(owner: number, grant: number): "released" | "not-held" {
    const w = this.writer;
    if (w === null || w.owner !== owner || w.grant !== grant || w.pending) return "not-held";
    w.count--;
    if (w.count === 0) {
      this.writer = null;
      if (this.readers.size === 0) this.grantHead();
    }
    return "released";
  }

  releaseRead(owner: number, grant: number): "released" | "not-held" {
    const r = this.readers.get(owner);
    if (!r || r.grant !== grant) return "not-held";
    r.count--;
    if (r.count === 0) {
      this.readers.delete(owner);
      if (this.readers.size === 0 && this.writer === null) this.grantHead();
    }
    return "released";
  }

  extendRead(owner: number, grant: number): "extended" | "not-held" {
    return this.readers.get(owner)?.grant === grant ? "extended" : "not-held";
  }

  expireWriter(): void {
    this.writer = null;
  }

  expireReader(owner: number): void {
    this.readers.delete(owner);
  }

  die(owner: number): void {
    if (this.queue.includes(owner)) this.dead.add(owner);
  }

  leaveWrite(owner: number): void {
    this.remove(owner);
    if (this.writer?.owner === owner && this.writer.pending) {
      this.writer = null;
      if (this.readers.size === 0) this.grantHead();
    }
  }

  writeCount(owner: number): number {
    return this.writer?.owner === owner && !this.writer.pending ? this.writer.count : 0;
  }

  liveWaiters(): number {
    return this.queue.filter((o) => !this.dead.has(o)).length;
  }

  private left(owner: number, answer: RwAnswer) {
    this.remove(owner);
    return { answer, position: 0 };
  }

  private remove(owner: number): void {
    this.queue = this.queue.filter((o) => o !== owner);
    this.dead.delete(owner);
  }

  /** Drops dead writers at the head; true when a live writer is queued. */
  private pruneDeadHead(): boolean {
    while (this.queue.length > 0 && this.dead.has(this.queue[0]!))
      this.dead.delete(this.queue.shift()!);
    return this.queue.length > 0;
  }

  private grantHead(): number | null {
    if (!this.pruneDeadHead()) return null;
    const head = this.queue.shift()!;
    this.writer = { owner: head, count: 1, grant: ++this.grants, pending: true };
    return head;
  }
}
