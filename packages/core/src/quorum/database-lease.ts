import { now } from "../engine/clock.ts";
import type { LeaseLostError } from "../errors.ts";
import { LeaseState } from "../lease/lease-state.ts";
import { OrderedRenewals, type RenewedHold, type RenewOutcome } from "../lease/ordered-renewal.ts";
import { extend, within, type QuorumDatabase } from "./calls.ts";

export interface DatabaseLeaseInit {
  readonly token: string;
  /** Monotonic ms the grant (or the resume) counts from. */
  readonly sentAt: number;
  /** What the holder may believe of this database's lease from `sentAt`; ≤ 0: not held here. */
  readonly validMs: number;
  /** Resumed: `validMs` is only what the carried data proves, until a renewal of its own. */
  readonly provisional: boolean;
  /** The quorum's request timeout for a lease: a round waits no longer for a database. */
  readonly timeoutFor: (leaseMs: number) => number;
  /** Lease → what of it the holder may believe (the quorum's drift allowance taken off). */
  readonly believedMs: (leaseMs: number) => number;
  /**
   * The quorum's local deadline while it is trusted (undefined while it is provisional): no
   * copy of a renewal may apply after it, since the holder has let go by then.
   */
  readonly quorumDeadline: () => number | undefined;
  /** Aborts when the hold ends: a renewal still retrying then stops. */
  readonly ended: AbortSignal;
  /** A renewal here settled (also one the round gave up on): this database's deadline moved. */
  readonly changed: () => void;
}

/**
 * One quorum hold's lease on one of its databases, renewed by the shared ordered renewal
 * (lease/ordered-renewal.ts): one renewal in flight here at a time (keeper and `extend` alike),
 * ordered by this database's lease version; while one is in doubt, this database's deadline is
 * the earliest it could have set; a resumed hold is provisional here until a renewal of its own
 * is confirmed. The quorum's validity is derived from these (quorum-validity.ts).
 */
export class DatabaseLease implements RenewedHold {
  readonly db: QuorumDatabase;
  readonly lease: LeaseState;
  provisional: boolean;
  /** The lease version this database last answered (a new acquisition starts at 0). */
  version = 0;
  readonly #renewals: OrderedRenewals;
  readonly #changed: () => void;

  constructor(
    db: QuorumDatabase,
    init: DatabaseLeaseInit,
    onLost: (error: LeaseLostError) => void,
  ) {
    this.db = db;
    this.provisional = init.provisional;
    this.#changed = init.changed;
    this.lease = new LeaseState(db.name, init.sentAt, init.validMs, onLost);
    this.#renewals = new OrderedRenewals(
      this,
      db.ctx.policy.retryWindowMs,
      `extend quorum db ${db.index}`,
      // The round's signal (checked before sending) only drops a renewal it gave up on before
      // it went; one in flight goes on, and settles its doubt, until the hold ends.
      async ({ leaseMs, op, budgetMs }) => {
        // Redlock's rule: a database that does not answer within the timeout is a "no"; no copy
        // applies later (the round has moved on), nor after the quorum's deadline.
        const quorumLeft = init.quorumDeadline();
        const budget = Math.floor(
          Math.min(
            budgetMs,
            init.timeoutFor(leaseMs),
            quorumLeft === undefined ? budgetMs : quorumLeft - now(),
          ),
        );
        const r = await extend(db, init.token, {
          version: this.version,
          leaseMs,
          op,
          budgetMs: budget,
          signal: init.ended,
        });
        if (r.status !== "gone") this.version = Math.max(this.version, r.version);
        return r;
      },
      init.believedMs,
    );
  }

  /** May a renewal still reach this database for this hold? (A provisional one may, after its deadline.) */
  get renewable(): boolean {
    return this.lease.active || this.provisional;
  }

  /**
   * Renews this database's lease to `leaseMs`, after any renewal of this hold already queued
   * here. The round waits at most `timeoutMs` (Redlock's rule: no answer in time is a "no"); a
   * renewal not sent by then is dropped, one in flight finishes in the background.
   */
  renew(leaseMs: number, timeoutMs: number, stop?: AbortSignal): Promise<RenewOutcome> {
    const gaveUp = new AbortController();
    const onStop = () => gaveUp.abort(stop?.reason);
    if (stop?.aborted) onStop();
    else stop?.addEventListener("abort", onStop, { once: true });
    const renewal = this.#renewals.renew(leaseMs, gaveUp.signal);
    const done = () => {
      stop?.removeEventListener("abort", onStop);
      this.#changed();
    };
    renewal.then(done, done);
    return within(this.db.ctx, renewal, timeoutMs, () => gaveUp.abort());
  }
}
