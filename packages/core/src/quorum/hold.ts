import { now } from "../engine/clock.ts";
import { QuorumError, type QuorumAnswer } from "../errors.ts";
import { holdLease, keepHold, wallExpiry } from "../lease/hold-lease.ts";
import type { LeaseState } from "../lease/lease-state.ts";
import { releaseEverywhere, type AcquireDeadlines } from "./attempt.ts";
import { extend, type DatabaseLease } from "./database.ts";
import { answerOf, driftMs, round, timeoutFor, type QuorumRef } from "./quorum-ref.ts";
import { SerialQueue } from "./serial-queue.ts";
import type { SerializedQuorumLease } from "./types.ts";

export interface QuorumHoldInit {
  readonly token: string;
  readonly fence: number;
  readonly startedAt: number;
  readonly validMs: number;
  readonly leaseMs: number;
  readonly keepAlive: boolean;
  readonly maxHoldMs: number | undefined;
  /** The acquire's deadline on each database, when this process made it (not for a resume). */
  readonly deadlines?: AcquireDeadlines;
}

export type RoundOutcome = "ok" | "lost" | "unreachable";

/**
 * One quorum grant: its validity as a `LeaseState` (deadline = start of the round that granted or
 * last renewed it + lease − drift, on this process' monotonic clock) and its keeper, which renews
 * on every database and needs a majority each time.
 */
export class QuorumHold {
  readonly ref: QuorumRef;
  readonly token: string;
  readonly fence: number;
  readonly lease: LeaseState;
  leaseMs: number;
  /**
   * Per database: the lease version it last answered (a new acquisition starts at 0 everywhere),
   * and the queue that keeps this hold's renewals there one at a time (keeper and `extend`).
   */
  readonly versions: DatabaseLease[];
  readonly #stop = new AbortController();
  readonly #init: QuorumHoldInit;
  #keeping: Promise<void> | undefined;

  constructor(ref: QuorumRef, init: QuorumHoldInit) {
    this.ref = ref;
    this.token = init.token;
    this.fence = init.fence;
    this.leaseMs = init.leaseMs;
    this.versions = ref.dbs.map(() => ({ version: 0, renewals: new SerialQueue() }));
    this.#init = init;
    this.lease = holdLease(this.#identity(), init.startedAt, init.validMs, () =>
      this.#stop.abort(),
    );
  }

  /** Hands a kept-alive hold to the keeper, once; rejects with the keeper's error. */
  startKeeping(): Promise<void> {
    if (!this.#init.keepAlive || !this.lease.active) return Promise.resolve();
    this.#keeping ??= this.#startKeeper(this.#init.startedAt, this.#init.maxHoldMs);
    return this.#keeping;
  }

  /** Sets the lease on every database; `ok` only with a majority, `lost` once a majority is impossible. */
  async extendRound(
    leaseMs: number,
    signal?: AbortSignal,
  ): Promise<{ outcome: RoundOutcome; answers: QuorumAnswer[]; startedAt: number }> {
    const startedAt = now();
    // While in doubt, the local deadline is no later than what this round may set (it may
    // shorten the lease); a confirmed round ends every earlier doubt (older versions).
    const doubt = this.lease.inDoubt(startedAt, leaseMs - driftMs(this.ref, leaseMs));
    // A renewal applied after the local deadline cannot help the holder, who has let go by then:
    // no copy may carry a deadline beyond it.
    const until = this.lease.deadline;
    const results = await round(this.ref.dbs, (db) =>
      extend(
        db,
        this.token,
        this.versions[db.index]!,
        { leaseMs, timeoutMs: timeoutFor(this.ref, leaseMs), until },
        signal,
      ),
    );
    const answers = results.map((r) => answerOf(r, (ok) => (ok ? "renewed" : "not-held")));
    const outcome = this.#tally(answers, "renewed");
    if (outcome === "ok") this.confirmAll(startedAt, leaseMs);
    // No database may have applied it: every request answered, none renewed.
    else if (answers.every((a) => a.status === "not-held")) doubt.resolve();
    return { outcome, answers, startedAt };
  }

  /** A renewal round that started at `startedAt` confirmed `leaseMs` on a majority. */
  confirm(startedAt: number, leaseMs: number): void {
    this.lease.confirm(startedAt, leaseMs - driftMs(this.ref, leaseMs));
  }

  /** As `confirm`, and every earlier renewal in doubt is resolved (it carried older versions). */
  confirmAll(startedAt: number, leaseMs: number): void {
    this.lease.renewed(startedAt, leaseMs - driftMs(this.ref, leaseMs));
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

  /** The hold ended (released or lost): stop the keeper and the deadline. */
  end(): void {
    this.lease.finish();
    this.#stop.abort();
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
      expiresAt: wallExpiry(this.lease),
    };
  }

  #tally(answers: readonly QuorumAnswer[], yes: QuorumAnswer["status"]): RoundOutcome {
    const n = answers.length;
    if (answers.filter((a) => a.status === yes).length >= this.ref.majority) return "ok";
    // More "not held" than a majority can spare: no majority holds it any more.
    return answers.filter((a) => a.status === "not-held").length > n - this.ref.majority
      ? "lost"
      : "unreachable";
  }

  #startKeeper(startedAt: number, maxHoldMs: number | undefined): Promise<void> {
    return keepHold(
      this.#identity(),
      {
        lease: this.lease,
        leaseMs: () => this.leaseMs,
        startedAt,
        maxHoldMs,
        extend: (ms, signal) => this.#renewRound(ms, signal),
        serialize: () => this.serialize(),
      },
      this.#stop.signal,
    );
  }

  #identity() {
    return { ctx: this.ref.ctx, name: this.ref.name, fence: this.fence };
  }

  /** A keeper renewal: a majority must confirm; too few answers is an unknown outcome (retry sooner). */
  async #renewRound(
    leaseMs: number,
    signal: AbortSignal,
  ): Promise<{ renewed: boolean; sentAt: number }> {
    const { outcome, answers, startedAt } = await this.extendRound(leaseMs, signal);
    if (outcome === "unreachable")
      throw new QuorumError(this.ref.name, "extend", "unreachable", this.ref.majority, answers);
    // The drift is taken off the confirmed lease, as `confirm()` does for acquire and extend.
    return { renewed: outcome === "ok", sentAt: startedAt - driftMs(this.ref, leaseMs) };
  }
}
