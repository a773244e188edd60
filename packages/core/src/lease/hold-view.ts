import type { LeaseState } from "./lease-state.ts";

/** What a caller's view reads of the hold behind it. */
export interface ViewedHold {
  readonly ref: { readonly name: string };
  readonly fence: number;
  readonly lease: LeaseState;
  readonly leaseMs: number;
}

/**
 * A caller's view of one hold under one name (a Lock's, a QuorumLock's): what it shows is read
 * from the hold each time, so the views of one hold agree, and follow `extend(ms)` and a loss.
 */
export abstract class HoldView {
  readonly #hold: ViewedHold;

  constructor(hold: ViewedHold) {
    this.#hold = hold;
  }

  get name(): string {
    return this.#hold.ref.name;
  }
  get fence(): number {
    return this.#hold.fence;
  }
  get signal(): AbortSignal {
    return this.#hold.lease.signal;
  }
  get leaseMs(): number {
    return this.#hold.leaseMs;
  }
}
