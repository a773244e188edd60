import type { EventClock } from "./clock.ts";

/** The busy answer, as acquire.lua gives it. */
export interface Busy {
  readonly pttl: number;
  readonly position: number;
  readonly meanHoldMs: number;
  readonly holdDevMs: number;
  readonly holdAgeMs: number;
  readonly meanCycleMs: number;
  readonly serverMs: number;
  readonly seenAgoMs?: number;
}

export type AcquireAnswer = { readonly granted: number } | { readonly busy: Busy };

/**
 * The Lock's scripts as a model (acquire.lua, release.lua, extend.lua, _grant-head.lua): one
 * holder, a FIFO queue with poll deadlines, direct grant to the head with a claim window, hold
 * statistics. `publish` is called on a direct grant, as PUBLISH is.
 */
export class ModelServer {
  holder:
    | { owner: number; fence: number; t: number; u?: number; g: boolean; expiresAt: number }
    | undefined;
  readonly queue: { owner: number; deadline: number }[] = [];
  stats: { h: number; d: number; y: number } | undefined;
  #fence = 0;

  /**
   * `firstOf` 1 is the library: a release grants the queue's head, reserved for its claim. More is
   * a polling design the library does not have: a release leaves the lock free, and the first of
   * the queue's first `firstOf` waiters to poll takes it (no grant, nothing published).
   */
  constructor(
    private readonly clock: EventClock,
    private readonly claimMs: number,
    private readonly publish: (owner: number, fence: number, claimMs: number) => void,
    private readonly firstOf = 1,
  ) {}

  acquire(owner: number, leaseMs: number, queue: boolean, returnWithinMs: number): AcquireAnswer {
    const now = this.clock.now;
    this.#expire();
    if (this.firstOf > 1 && this.holder === undefined)
      return this.#firstOf(owner, leaseMs, queue, returnWithinMs);
    if (this.holder === undefined && this.#grantHead(owner) === undefined) {
      this.holder = { owner, fence: ++this.#fence, t: now, g: false, expiresAt: now + leaseMs };
      this.#leave(owner);
      return { granted: this.holder.fence };
    }
    const h = this.holder!;
    if (h.owner === owner) {
      if (h.g) Object.assign(h, { g: false, u: now, expiresAt: now + leaseMs });
      this.#leave(owner);
      return { granted: h.fence };
    }
    let position = 0;
    if (queue) {
      const mine = this.queue.find((w) => w.owner === owner);
      if (mine) mine.deadline = now + returnWithinMs;
      else this.queue.push({ owner, deadline: now + returnWithinMs });
      position = this.queue.findIndex((w) => w.owner === owner) + 1;
    }
    const age = h.g && h.u === undefined ? 0 : now - (h.u ?? h.t);
    return {
      busy: {
        pttl: h.expiresAt - now,
        position,
        meanHoldMs: Math.floor(this.stats?.h ?? 0),
        holdDevMs: Math.floor(this.stats?.d ?? 0),
        holdAgeMs: age,
        meanCycleMs: Math.floor(this.stats?.y ?? 0),
        serverMs: now,
        seenAgoMs: h.g && h.u === undefined ? -1 : now - (h.u ?? h.t),
      },
    };
  }

  /** Read-only but for marking a grant seen: the fence of the grant reserved for `owner`. */
  peek(owner: number): number | undefined {
    this.#expire();
    const h = this.holder;
    if (!h || h.owner !== owner) return undefined;
    if (h.g && h.u === undefined) h.u = this.clock.now;
    return h.fence;
  }

  release(owner: number, fence: number): boolean {
    this.#expire();
    const h = this.holder;
    if (h?.owner !== owner || h.fence !== fence) return false;
    const used = this.clock.now - (h.u ?? h.t);
    const cycle = this.clock.now - h.t;
    const mean = this.stats?.h ?? used;
    const dev = this.stats?.d ?? Math.abs(used - mean);
    const y = this.stats?.y ?? cycle;
    this.stats = {
      h: mean + (used - mean) / 4,
      d: dev + (Math.abs(used - mean) - dev) / 4,
      y: y + (cycle - y) / 4,
    };
    this.holder = undefined;
    if (this.firstOf === 1) this.#grantHead(undefined);
    return true;
  }

  extend(owner: number, fence: number, leaseMs: number): boolean {
    this.#expire();
    const h = this.holder;
    if (h?.owner !== owner || h.fence !== fence) return false;
    Object.assign(h, { g: false, expiresAt: this.clock.now + leaseMs });
    return true;
  }

  /** A free lock under `firstOf` > 1: taken by one of the first waiters, or by anyone when none wait. */
  #firstOf(owner: number, leaseMs: number, queue: boolean, returnWithinMs: number): AcquireAnswer {
    const now = this.clock.now;
    const live = this.queue.filter((w) => w.deadline >= now);
    this.queue.splice(0, this.queue.length, ...live);
    let i = this.queue.findIndex((w) => w.owner === owner);
    if (this.queue.length === 0 || (i >= 0 && i < this.firstOf)) {
      this.holder = { owner, fence: ++this.#fence, t: now, g: false, expiresAt: now + leaseMs };
      this.#leave(owner);
      return { granted: this.holder.fence };
    }
    if (i >= 0) this.queue[i]!.deadline = now + returnWithinMs;
    else if (queue) i = this.queue.push({ owner, deadline: now + returnWithinMs }) - 1;
    // Free, but kept for the first waiters: told as a hold at its mean age, due any moment.
    const mean = Math.floor(this.stats?.h ?? 0);
    return {
      busy: {
        pttl: 0,
        position: i + 1,
        meanHoldMs: mean,
        holdDevMs: Math.floor(this.stats?.d ?? 0),
        holdAgeMs: mean,
        meanCycleMs: Math.floor(this.stats?.y ?? 0),
        serverMs: now,
        seenAgoMs: mean,
      },
    };
  }

  #expire(): void {
    if (this.holder && this.holder.expiresAt <= this.clock.now) this.holder = undefined;
  }

  #leave(owner: number): void {
    const i = this.queue.findIndex((w) => w.owner === owner);
    if (i >= 0) this.queue.splice(i, 1);
  }

  #grantHead(quietFor: number | undefined): number | undefined {
    const now = this.clock.now;
    for (let head = this.queue.shift(); head; head = this.queue.shift()) {
      if (head.deadline < now) continue;
      this.holder = {
        owner: head.owner,
        fence: ++this.#fence,
        t: now,
        g: true,
        expiresAt: now + this.claimMs,
      };
      if (head.owner !== quietFor) this.publish(head.owner, this.holder.fence, this.claimMs);
      return head.owner;
    }
    return undefined;
  }
}
