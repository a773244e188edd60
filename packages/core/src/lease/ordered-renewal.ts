import { testSeams } from "../test-seams.ts";
import { now } from "../engine/clock.ts";
import { newOperation, type Operation } from "../engine/operation.ts";
import { AbortedError, OutcomeUnknownError } from "../errors.ts";
import type { LeaseState } from "./lease-state.ts";

/**
 * The renewal of one hold's lease, ordered on the server by a lease version (docs/protocol.md,
 * "Renewals are ordered"), shared by every leased hold (Lock and its flavours, MultiLock,
 * PermitExpirableSemaphore). A primitive brings only the request (`RenewalRequest`); the rules
 * that keep `held.signal` honest live here, once:
 *
 * - one renewal of a hold in flight at a time, keeper and `extend` alike (`OrderedRenewals`);
 * - while a renewal is in doubt the local deadline is no later than what it would set (it may
 *   shorten the lease); once one is confirmed, every earlier one is dead (older versions);
 * - a stale answer (another renewal of the same server lease applied first: a keeper elsewhere,
 *   a resume) gives the server's lease and version; the renewal goes again once with them;
 * - a resumed hold is provisional until its first confirmed renewal: that renewal may be sent
 *   after the carried deadline ran out (it is what makes the hold trusted again).
 */
export type RenewOutcome = "renewed" | "stale" | "gone";

/** What one renewal request answered. */
export interface RenewalAnswer {
  /** "stale": another renewal of this lease applied first; `pttl` is the lease the server has. */
  readonly status: RenewOutcome;
  /** With "stale": the server's remaining lease, ms (the shortest, for a hold of several locks). */
  readonly pttl: number;
}

/** A versioned extend script's answer, decoded: every such script answers the same slots. */
export interface DecodedRenewal extends RenewalAnswer {
  /** After the renewal, or the server's (with "stale"). */
  readonly version: number;
  /** Send time (monotonic) of the request's first copy. */
  readonly sentAt: number;
}

/** A versioned extend script's status slot: 1 renewed, 2 stale, anything else gone. */
export function renewalStatus(code: number): RenewOutcome {
  return code === 1 ? "renewed" : code === 2 ? "stale" : "gone";
}

/** Decodes the reply of a versioned extend script (`status version pttl`). */
export function decodeRenewal(
  r: { readonly status: number; readonly version: number; readonly pttl: number },
  sentAt: number,
): DecodedRenewal {
  return { status: renewalStatus(r.status), version: r.version, pttl: r.pttl, sentAt };
}

/** One renewal request of a hold; it records the lease version(s) the answer carries. */
export type RenewalRequest = (p: {
  readonly leaseMs: number;
  readonly op: Operation;
  /** How long after sending a copy may still apply: until the hold's local deadline. */
  readonly budgetMs: number;
  readonly signal?: AbortSignal | undefined;
}) => Promise<RenewalAnswer>;

/** The holder's side of a renewed lease. */
export interface RenewedHold {
  readonly lease: LeaseState;
  /** Resumed and not yet confirmed by a renewal of its own: its deadline came from another machine. */
  provisional: boolean;
  /**
   * Resumed from `toJSON()` (absent: no): its local lease may have ended at once, before any
   * renewal could confirm it, so a local end says nothing about the server's lease.
   */
  readonly resumed?: boolean;
}

/**
 * One hold's renewals, one at a time. A keeper renewal and an `extend()` that meet queue up, so
 * a hold never has two renewals in flight, and each carries the version the previous one left.
 */
export class OrderedRenewals {
  readonly #hold: RenewedHold;
  readonly #retryWindowMs: number;
  readonly #request: RenewalRequest;
  readonly #what: string;
  readonly #believedMs: (leaseMs: number) => number;
  #tail: Promise<unknown> = Promise.resolve();

  /**
   * `believedMs`: how much of a lease the server confirmed the holder may count on (default: all
   * of it). The quorum lock takes Redlock's clock-drift allowance off each database's lease.
   */
  constructor(
    hold: RenewedHold,
    retryWindowMs: number,
    what: string,
    request: RenewalRequest,
    believedMs: (leaseMs: number) => number = (ms) => ms,
  ) {
    this.#hold = hold;
    this.#retryWindowMs = retryWindowMs;
    this.#what = what;
    this.#request = request;
    this.#believedMs = believedMs;
  }

  /** Renews the lease to `leaseMs`, after any renewal already queued for this hold. */
  renew(leaseMs: number, signal?: AbortSignal): Promise<RenewOutcome> {
    if (testSeams.concurrentRenewals) return this.#renewInTurn(leaseMs, signal);
    const next = this.#tail.then(() => this.#renewInTurn(leaseMs, signal));
    this.#tail = next.catch(() => undefined);
    return next;
  }

  /** The keeper's `extend` (see `Renewable`): this moves the local deadline itself. */
  async forKeeper(
    leaseMs: number,
    signal: AbortSignal,
  ): Promise<{ renewed: boolean; sentAt: number; leaseConfirmed: true }> {
    const outcome = await this.renew(leaseMs, signal);
    return { renewed: outcome !== "gone", sentAt: 0, leaseConfirmed: true };
  }

  /** One renewal, its turn come: a stale answer is learnt from and asked once more. */
  async #renewInTurn(leaseMs: number, signal: AbortSignal | undefined): Promise<RenewOutcome> {
    const hold = this.#hold;
    const { lease } = hold;
    for (let tries = 0; tries < 2; tries++) {
      const sentAt = now();
      // A copy applied after the local deadline could not help: the holder has given up by then.
      // A provisional hold's deadline is only what the carried data proves; its first renewal
      // may go after it.
      const left = Math.floor(lease.deadline - sentAt);
      // Nor, for a resumed hold, a local lease that already ended: the retry window bounds those.
      const unbounded = hold.provisional || (hold.resumed === true && !lease.active);
      const budgetMs = unbounded ? this.#retryWindowMs : left;
      if (budgetMs <= 0) return "gone";
      // Cancelled before it was sent (the hold ended, or `extend(ms)` restarted the keeper while
      // this renewal was queued): it cannot apply, so it must not bound the deadline.
      if (signal?.aborted) throw new AbortedError(this.#what, signal.reason);
      const doubt = lease.inDoubt(sentAt, this.#believedMs(leaseMs));
      let answer;
      try {
        answer = await this.#request({ leaseMs, op: newOperation(), budgetMs, signal });
      } catch (error) {
        // Known not to have applied (settled, refused): it no longer bounds the deadline. An
        // aborted one (the hold ended, or the keeper restarted) may have: it stays in doubt.
        if (!(error instanceof OutcomeUnknownError || error instanceof AbortedError))
          doubt.resolve();
        throw error;
      }
      if (answer.status === "gone") {
        doubt.resolve();
        lease.lose("gone");
        return "gone";
      }
      if (answer.status === "renewed") {
        hold.provisional = false;
        lease.renewed(sentAt, this.#believedMs(leaseMs));
        return "renewed";
      }
      // The server's lease is what the renewal that won set; ours (older versions) are all dead.
      lease.renewed(sentAt, this.#believedMs(Math.max(answer.pttl, 0)));
    }
    return "stale";
  }
}
