/**
 * Reference model of reentrant locks taken one by one (Lock) or several at once (MultiLock), by
 * owners that may use both kinds of handle. Plain data, no time: expiry is an explicit operation.
 * Fences are abstract: the model says which names got a new fence and which kept theirs.
 */
export interface ModelLock {
  owner: number;
  count: number;
  /** Increases with each new acquisition of this name. */
  epoch: number;
}

export interface ModelMultiHold {
  readonly owner: number;
  readonly names: readonly string[];
  /** The epoch of each name when this hold was granted (the acquisition it belongs to). */
  readonly epochs: ReadonlyMap<string, number>;
  released: boolean;
}

export class MultiLockModel {
  readonly locks = new Map<string, ModelLock>();
  readonly holds: ModelMultiHold[] = [];
  #epochs = new Map<string, number>();

  /** All of `names` or none: "granted" with the names that got a new fence, or "busy". */
  tryAcquire(
    owner: number,
    names: readonly string[],
  ): { result: "granted"; fresh: Set<string> } | { result: "busy" } {
    if (
      names.some((n) => {
        const l = this.locks.get(n);
        return l !== undefined && l.owner !== owner;
      })
    )
      return { result: "busy" };
    const fresh = new Set<string>();
    const epochs = new Map<string, number>();
    for (const name of names) {
      const lock = this.locks.get(name);
      if (lock) lock.count++;
      else {
        const epoch = (this.#epochs.get(name) ?? 0) + 1;
        this.#epochs.set(name, epoch);
        this.locks.set(name, { owner, count: 1, epoch });
        fresh.add(name);
      }
      epochs.set(name, this.locks.get(name)!.epoch);
    }
    this.holds.push({ owner, names, epochs, released: false });
    return { result: "granted", fresh };
  }

  #heldBy(hold: ModelMultiHold, name: string): boolean {
    const lock = this.locks.get(name);
    return lock !== undefined && lock.owner === hold.owner && lock.epoch === hold.epochs.get(name);
  }

  /** Releases one level of every name still held by this hold's acquisition; "not-held" if any was gone. */
  release(hold: ModelMultiHold): "released" | "not-held" {
    if (hold.released) return "not-held";
    hold.released = true;
    let all = true;
    for (const name of hold.names) {
      if (!this.#heldBy(hold, name)) {
        all = false;
        continue;
      }
      const lock = this.locks.get(name)!;
      if (--lock.count === 0) this.locks.delete(name);
    }
    return all ? "released" : "not-held";
  }

  extend(hold: ModelMultiHold): "extended" | "not-held" {
    return !hold.released && hold.names.every((n) => this.#heldBy(hold, n))
      ? "extended"
      : "not-held";
  }

  expire(name: string): void {
    this.locks.delete(name);
  }

  holdCount(owner: number, name: string): number {
    const lock = this.locks.get(name);
    return lock && lock.owner === owner ? lock.count : 0;
  }
}
