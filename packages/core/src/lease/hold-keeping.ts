import { testSeams } from "../test-seams.ts";
import { holdLease, keepHold, type HoldIdentity } from "./hold-lease.ts";
import type { LeaseState } from "./lease-state.ts";
import type { Renewable } from "./renewal.ts";

/** What every leased hold starts from, granted or resumed (Lock and its kin, MultiLock, QuorumLock, a permit). */
export interface KeptHoldInit {
  /**
   * Send time (monotonic) of the request that granted or last confirmed the lease (now, for a
   * resume): the lease counts from it, and so does `maxHoldMs`.
   */
  readonly sentAt: number;
  /** The lease each renewal asks for. */
  readonly leaseMs: number;
  /** Renewed by the client's keeper until released (the default lease), rather than a fixed lease. */
  readonly keepAlive: boolean;
  readonly maxHoldMs: number | undefined;
  /** A resumed hold, not yet confirmed by a renewal of its own. */
  readonly provisional?: boolean;
}

/** A hold of one server lease ordered by a lease version (a Lock's, a permit's). */
export interface VersionedHoldInit extends KeptHoldInit {
  readonly fence: number;
  /** What the grant (or the carried data, for a resume) confirmed of the lease from `sentAt`. */
  readonly confirmedMs: number;
  /** The lease version on the server when the hold was granted or resumed. */
  readonly version: number;
}

/** What the keeper asks of the hold itself: one renewal, and its serialised form. */
export type KeptHold = Pick<Renewable, "extend" | "serialize">;

/**
 * The lease of one hold and its keeper task, the same for every leased kind. The keeper is
 * started once (a re-entry shares it), restarted when `extend(ms)` changes the lease so the
 * keeper renews at a third of the new one (issue 13, finding 7: renewing at a third of the first
 * lease loses a hold extended to a shorter one), stopped when the hold ends.
 */
export class HoldKeeping {
  /** Its loss emits `lost` under the hold's name and fence, stops the keeper, then runs `onEnd`. */
  readonly lease: LeaseState;
  readonly #id: HoldIdentity;
  readonly #init: KeptHoldInit;
  readonly #hold: KeptHold;
  readonly #onEnd: () => void;
  #leaseMs: number;
  #stop: AbortController | undefined;
  #keeping: Promise<void> | undefined;
  #ended = false;

  /**
   * `validMs`: how long from `init.sentAt` the holder may believe the lease. `onEnd` runs when
   * the lease is lost and on `finish()`; it may run inside this constructor, when the lease had
   * already run out, before the holder has a `HoldKeeping` to keep.
   */
  constructor(
    id: HoldIdentity,
    init: KeptHoldInit,
    validMs: number,
    hold: KeptHold,
    onEnd: () => void = () => undefined,
  ) {
    this.#id = id;
    this.#init = init;
    this.#hold = hold;
    this.#onEnd = onEnd;
    this.#leaseMs = init.leaseMs;
    this.lease = holdLease(id, init.sentAt, validMs, () => this.#end());
  }

  /** The lease each renewal asks for: the acquire's, or the last `extend(ms)`'s. */
  get leaseMs(): number {
    return this.#leaseMs;
  }

  /**
   * Hands a kept-alive hold to the keeper, once (a re-entry shares the first one's keeper).
   * Rejects with the keeper's error when it cannot take the hold.
   */
  start(): Promise<void> {
    if (!this.#init.keepAlive || this.#ended || !this.lease.active) return Promise.resolve();
    this.#keeping ??= this.#run();
    return this.#keeping;
  }

  /** `extend(ms)` set a new lease: the keeper renews at a third of it from now on (finding 7). */
  setLeaseMs(ms: number): void {
    if (ms === this.#leaseMs) return;
    this.#leaseMs = ms;
    this.#restart();
  }

  /** The hold ended (released or lost): stop renewing, for good. */
  stop(): void {
    this.#ended = true;
    this.#stop?.abort();
  }

  /** The hold ended normally (released): the lease finishes, the keeper stops, `onEnd` runs. */
  finish(): void {
    this.lease.finish();
    this.#end();
  }

  #end(): void {
    this.stop();
    this.#onEnd();
  }

  /** The lease changed: a running keeper starts over with the new interval. */
  #restart(): void {
    if (testSeams.keeperIntervalFromFirstLease) return;
    if (this.#stop === undefined || this.#ended || !this.lease.active) return;
    this.#stop.abort();
    // The keeper took this hold once; if it refuses it now, nothing renews it any more.
    this.#keeping = this.#run().catch((error: unknown) => {
      this.lease.lose("keeper-failed", error);
    });
  }

  /** Hands the hold to the keeper until the next restart or the end (see `keepHold`). */
  #run(): Promise<void> {
    const stop = (this.#stop = new AbortController());
    const hold = this.#hold;
    return keepHold(
      this.#id,
      {
        lease: this.lease,
        leaseMs: () => this.#leaseMs,
        startedAt: this.#init.sentAt,
        maxHoldMs: this.#init.maxHoldMs,
        extend: (ms, signal) => hold.extend(ms, signal),
        serialize: () => hold.serialize(),
      },
      stop.signal,
    );
  }
}
