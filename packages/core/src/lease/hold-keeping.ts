import { testSeams } from "../test-seams.ts";
import type { LeaseState } from "./lease-state.ts";

/**
 * The keeper task of one kept-alive hold, the same for every leased kind: started once (a
 * re-entry shares it), restarted when `extend(ms)` changes the lease so the keeper renews at a
 * third of the new one (issue 13, finding 7: renewing at a third of the first lease loses a hold
 * extended to a shorter one), stopped when the hold ends.
 */
export class HoldKeeping {
  readonly #lease: LeaseState;
  readonly #keep: (stop: AbortSignal) => Promise<void>;
  #stop: AbortController | undefined;
  #keeping: Promise<void> | undefined;
  #ended = false;

  /** `keep` hands the hold to the keeper until `stop` aborts (see `keepHold`). */
  constructor(lease: LeaseState, keep: (stop: AbortSignal) => Promise<void>) {
    this.#lease = lease;
    this.#keep = keep;
  }

  /** Hands the hold to the keeper, once. Rejects with the keeper's error when it cannot take it. */
  start(): Promise<void> {
    if (this.#ended || !this.#lease.active) return Promise.resolve();
    this.#keeping ??= this.#run();
    return this.#keeping;
  }

  /** The lease changed: a running keeper starts over with the new interval. */
  restart(): void {
    if (testSeams.keeperIntervalFromFirstLease) return;
    if (this.#stop === undefined || this.#ended || !this.#lease.active) return;
    this.#stop.abort();
    // The keeper took this hold once; if it refuses it now, nothing renews it any more.
    this.#keeping = this.#run().catch((error: unknown) => {
      this.#lease.lose("keeper-failed", error);
    });
  }

  /** The hold ended (released or lost): stop renewing, for good. */
  stop(): void {
    this.#ended = true;
    this.#stop?.abort();
  }

  #run(): Promise<void> {
    const stop = (this.#stop = new AbortController());
    return this.#keep(stop.signal);
  }
}
