import { now } from "../engine/clock.ts";
import { BackendError, QuorumError, type LeaseLostError, type QuorumAnswer } from "../errors.ts";
import { HoldKeeping, type KeptHoldInit } from "../lease/hold-keeping.ts";
import { wallExpiry } from "../lease/hold-lease.ts";
import type { LeaseState } from "../lease/lease-state.ts";
import type { RenewOutcome } from "../lease/ordered-renewal.ts";
import { releaseEverywhere, type AcquireDeadlines } from "./attempt.ts";
import { DatabaseLease } from "./database-lease.ts";
import { answerOf, driftMs, round, timeoutFor, type QuorumRef } from "./quorum-ref.ts";
import { quorumDeadline } from "./quorum-validity.ts";
import type { SerializedQuorumLease } from "./types.ts";

export interface QuorumHoldInit extends KeptHoldInit {
  readonly token: string;
  readonly fence: number;
  /** Monotonic ms the validities count from (the attempt's start, or the resume). */
  readonly sentAt: number;
  /** Per database: what the holder may believe of its lease from `sentAt` (≤ 0: not held there). */
  readonly validMs: readonly number[];
  /** Resumed: each database's validity is only what the carried data proves, until renewed. */
  readonly provisional?: boolean;
  /** The acquire's deadline on each database, when this process made it (not for a resume). */
  readonly deadlines?: AcquireDeadlines;
}

export type RoundOutcome = "ok" | "lost" | "unreachable";

/**
 * One quorum grant: a lease per database (database-lease.ts, on the shared ordered renewal), and
 * the quorum's validity derived from them as a `LeaseState` — the `majority`-th latest of their
 * deadlines (quorum-validity.ts), each one's start + lease − drift on this process' monotonic
 * clock — with its keeper (lease/hold-keeping.ts), which renews on every database and needs a
 * majority each time.
 */
export class QuorumHoldState {
  readonly ref: QuorumRef;
  readonly token: string;
  readonly fence: number;
  readonly lease: LeaseState;
  /** Empty until built: the validity may run out inside the constructor (a late resume). */
  #dbs: readonly DatabaseLease[] = [];
  readonly #ended = new AbortController();
  readonly #keeping: HoldKeeping;
  readonly #init: QuorumHoldInit;
  /** Databases whose renewal found the hold gone there (not merely past its local deadline). */
  #gone = 0;

  constructor(ref: QuorumRef, init: QuorumHoldInit) {
    this.ref = ref;
    this.token = init.token;
    this.fence = init.fence;
    this.#init = init;
    const start = quorumDeadline(
      init.validMs.map((ms) => (ms > 0 ? init.sentAt + ms : -Infinity)),
      ref.majority,
    );
    this.#keeping = new HoldKeeping(
      { ctx: ref.ctx, name: ref.name, fence: init.fence },
      init,
      start - init.sentAt,
      {
        extend: (ms, signal) => this.#renewRound(ms, signal),
        serialize: () => this.serialize(),
      },
      () => this.#endDatabases(),
    );
    this.lease = this.#keeping.lease;
    const believedMs = (ms: number) => Math.max(0, ms - driftMs(ref, ms));
    this.#dbs = ref.dbs.map(
      (db) =>
        new DatabaseLease(
          db,
          {
            token: init.token,
            sentAt: init.sentAt,
            validMs: init.validMs[db.index] ?? 0,
            provisional: init.provisional ?? false,
            believedMs,
            timeoutFor: (ms) => timeoutFor(ref, ms),
            quorumDeadline: () => (this.provisional ? undefined : this.lease.deadline),
            ended: this.#ended.signal,
            changed: () => this.#derive(),
          },
          (error) => this.#databaseLost(error),
        ),
    );
    if (this.lease.active) this.#derive();
    else this.#endDatabases();
  }

  /**
   * Resumed and not yet confirmed by renewals of its own on a majority: the quorum's deadline
   * came from another machine's wall clock.
   */
  get provisional(): boolean {
    return this.#dbs.filter((d) => !d.provisional).length < this.ref.majority;
  }

  get leaseMs(): number {
    return this.#keeping.leaseMs;
  }

  /** Hands a kept-alive hold to the keeper, once; rejects with the keeper's error. */
  startKeeping(): Promise<void> {
    return this.#keeping.start();
  }

  /** `extend(ms)` set a new lease: the keeper renews at a third of it from now on (finding 7). */
  setLeaseMs(ms: number): void {
    this.#keeping.setLeaseMs(ms);
  }

  /**
   * Renews the lease on every database it may still be held on; `ok` only with a majority,
   * `lost` once a majority is impossible. Each database's renewal is ordered there, one in
   * flight at a time; while one is in doubt that database counts with the earliest deadline it
   * could have set (it may shorten the lease).
   */
  async extendRound(
    leaseMs: number,
    stop?: AbortSignal,
  ): Promise<{ outcome: RoundOutcome; answers: QuorumAnswer[] }> {
    const timeoutMs = timeoutFor(this.ref, leaseMs);
    const results = await round(this.ref.dbs, (db) => {
      const d = this.#dbs[db.index]!;
      // Out of this hold here for good (gone, or past its deadline): no request.
      if (!d.renewable) return Promise.resolve<RenewOutcome>("gone");
      return d.renew(leaseMs, timeoutMs, stop);
    });
    const answers = results.map((r) =>
      r.value === "stale"
        ? {
            database: r.db.index,
            status: "error" as const,
            error: new BackendError("lost twice to another renewal of the same lease"),
          }
        : answerOf(r, (outcome) => (outcome === "renewed" ? "renewed" : "not-held")),
    );
    this.#derive();
    return { outcome: this.#tally(answers, "renewed"), answers };
  }

  async releaseRound(): Promise<{ outcome: RoundOutcome; answers: QuorumAnswer[] }> {
    const answers = await releaseEverywhere(
      this.ref,
      this.token,
      timeoutFor(this.ref, this.leaseMs),
      this.#init.deadlines,
    );
    return { outcome: this.#tally(answers, "released"), answers };
  }

  /** The hold ended (released or lost): stop the keeper, the renewals and the deadlines. */
  end(): void {
    this.#keeping.finish();
  }

  serialize(): SerializedQuorumLease {
    return {
      v: 1,
      kind: "quorum-lock",
      name: this.ref.name,
      prefixes: this.ref.dbs.map((db) => db.ctx.prefix),
      token: this.token,
      fence: this.fence,
      leaseMs: this.leaseMs,
      expiresAt: wallExpiry(this.lease, this.ref.ctx.wallClock),
    };
  }

  /** The hold ended (the keeper has stopped): so do the databases' renewals and deadlines. */
  #endDatabases(): void {
    // Runs inside the constructor when the validity had already run out: nothing built yet then.
    this.#ended.abort();
    for (const d of this.#dbs) d.lease.finish();
  }

  #databaseLost(error: LeaseLostError): void {
    if (error.reason === "gone") this.#gone++;
    this.#derive();
  }

  /** The quorum's deadline follows its databases' (earlier or later). */
  #derive(): void {
    // Inside the constructor (a database already past its deadline): derived once built.
    if (this.#dbs.length === 0 || !this.lease.active) return;
    const deadline = quorumDeadline(
      this.#dbs.map((d) => (d.lease.active ? d.lease.deadline : -Infinity)),
      this.ref.majority,
    );
    // Found gone on more databases than a majority can spare: no majority holds it any more.
    if (deadline <= now() && this.#gone > this.ref.dbs.length - this.ref.majority)
      this.lease.lose("gone");
    else this.lease.confirmUntil(deadline);
  }

  #tally(answers: readonly QuorumAnswer[], yes: QuorumAnswer["status"]): RoundOutcome {
    const n = answers.length;
    if (answers.filter((a) => a.status === yes).length >= this.ref.majority) return "ok";
    // More "not held" than a majority can spare: no majority holds it any more.
    return answers.filter((a) => a.status === "not-held").length > n - this.ref.majority
      ? "lost"
      : "unreachable";
  }

  /**
   * A keeper renewal: a majority must confirm; too few answers is an unknown outcome (retry
   * sooner). The databases' leases moved the quorum's deadline themselves.
   */
  async #renewRound(
    leaseMs: number,
    signal: AbortSignal,
  ): Promise<{ renewed: boolean; sentAt: number; leaseConfirmed: true }> {
    const { outcome, answers } = await this.extendRound(leaseMs, signal);
    if (outcome === "unreachable")
      throw new QuorumError(this.ref.name, "extend", "unreachable", this.ref.majority, answers);
    return { renewed: outcome === "ok", sentAt: 0, leaseConfirmed: true };
  }
}
