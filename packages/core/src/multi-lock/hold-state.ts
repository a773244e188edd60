import { HoldKeeping, type KeptHoldInit } from "../lease/hold-keeping.ts";
import { wallExpiry } from "../lease/hold-lease.ts";
import type { LeaseState } from "../lease/lease-state.ts";
import {
  OrderedRenewals,
  type RenewalAnswer,
  type RenewalRequest,
  type RenewOutcome,
} from "../lease/ordered-renewal.ts";
import type { GroupRenewal } from "./group.ts";
import { groupFailure, rejections } from "./group-failures.ts";
import type { MultiRef } from "./multi-ref.ts";
import { splitByGroup } from "./multi-ref.ts";
import type { SerializedMultiLease } from "./types.ts";
import type { PendingClaim } from "../wait/pushed-grant.ts";

export interface MultiHoldInit extends KeptHoldInit {
  readonly fences: readonly number[];
  /** Each lock's lease version when granted or resumed, in `ref.names` order (0: not known). */
  readonly versions: readonly number[];
  /** Monotonic ms at which the first part may expire. */
  readonly deadline: number;
}

/**
 * One acquisition of all the names (one fence each) as seen by one handle: the lease its nested
 * holds share, as the Lock's `LockHoldState`. The local deadline is the earliest of the parts', so
 * `signal` aborts as soon as any part may be gone; renewals must confirm every part, and are
 * ordered by each lock's lease version, one at a time (lease/ordered-renewal.ts).
 */
export class MultiLockHoldState {
  readonly ref: MultiRef;
  readonly fences: readonly number[];
  readonly lease: LeaseState;
  /** The lease version of each lock this hold last saw, in `ref.names` order; renewals carry them. */
  versions: number[];
  /** Resumed and not yet confirmed: `expiresAt` came from another machine's wall clock. */
  provisional: boolean;
  /** Resumed from `toJSON()`: a local end of its lease says nothing of the server's (see Lock's `LockHoldState`). */
  readonly resumed: boolean;
  readonly #renewals: OrderedRenewals;
  /** The claim of a hold entered on its grant messages, until sent (see acquire.ts). */
  pendingClaim: PendingClaim | undefined;
  #views = 0;
  readonly #keeping: HoldKeeping;

  constructor(ref: MultiRef, init: MultiHoldInit, onEnd: () => void) {
    this.ref = ref;
    this.fences = init.fences;
    this.versions = [...init.versions];
    this.provisional = init.provisional ?? false;
    this.resumed = this.provisional;
    // Events speak of the multi-lock by its label and its first name's fence.
    const id = { ctx: ref.ctx, name: ref.label, fence: init.fences[0] ?? 0 };
    this.#keeping = new HoldKeeping(
      id,
      init,
      init.deadline - init.sentAt,
      {
        extend: (ms, signal) => this.#renewals.forKeeper(ms, signal),
        serialize: () => this.serialize(),
      },
      onEnd,
    );
    this.lease = this.#keeping.lease;
    const what = `extend multi-lock ${ref.label}`;
    this.#renewals = new OrderedRenewals(this, ref.ctx.policy.retryWindowMs, what, (p) =>
      this.#renewAll(p),
    );
  }

  get leaseMs(): number {
    return this.#keeping.leaseMs;
  }

  /** Hands a kept-alive hold to the keeper, once (re-entries share it); rejects with the keeper's error. */
  startKeeping(): Promise<void> {
    return this.#keeping.start();
  }

  attach(): void {
    this.#views++;
  }

  /** A view was released; `stillHeld`: every name kept a hold level on the server. */
  detach(stillHeld: boolean): void {
    this.#views--;
    if (this.#views <= 0 || !stillHeld) this.#keeping.finish();
  }

  /** Renews every part's lease: one renewal of this hold in flight at a time (keeper and `extend` alike). */
  renew(leaseMs: number, signal?: AbortSignal): Promise<RenewOutcome> {
    return this.#renewals.renew(leaseMs, signal);
  }

  /** A re-entry's grant carries the versions the server has now. */
  learnVersions(versions: readonly number[]): void {
    this.versions = this.versions.map((v, i) => Math.max(v, versions[i] ?? 0));
  }

  /**
   * One renewal request per group, in parallel. "gone" when any part is gone; "stale" when any
   * group's versions were behind (that group changed nothing; the others renewed), with the
   * shortest lease any part now has; otherwise "renewed". Versions learnt from the groups that
   * answered are kept even when another group's outcome is unknown.
   */
  async #renewAll(p: Parameters<RenewalRequest>[0]): Promise<RenewalAnswer> {
    const perGroup = splitByGroup(this.ref, this.fences);
    const seen = splitByGroup(this.ref, this.versions);
    const results = await Promise.allSettled(
      this.ref.groups.map((g, i) =>
        g.extend({ ...p, owner: this.ref.owner, fences: perGroup[i]!, versions: seen[i]! }),
      ),
    );
    const answers = results.map((r) => (r.status === "fulfilled" ? r.value : undefined));
    this.#learn(answers);
    const failures = rejections(results);
    if (failures.length > 0) throw groupFailure(failures);
    const parts = answers.flatMap((a) =>
      a!.status.map((status, i) => ({ status, pttl: a!.pttls[i]! })),
    );
    if (parts.some((x) => x.status === "gone")) return { status: "gone", pttl: 0 };
    if (parts.every((x) => x.status === "renewed")) return { status: "renewed", pttl: p.leaseMs };
    return { status: "stale", pttl: Math.min(...parts.map((x) => x.pttl)) };
  }

  #learn(answers: readonly (GroupRenewal | undefined)[]): void {
    let offset = 0;
    answers.forEach((a, g) => {
      const size = this.ref.groups[g]!.names.length;
      a?.versions.forEach((v, i) => {
        if (a.status[i] !== "gone")
          this.versions[offset + i] = Math.max(this.versions[offset + i] ?? 0, v);
      });
      offset += size;
    });
  }

  /** One hold level of every name, in parallel; names still held are released even if another is gone. */
  async releaseAll(
    opId: (group: number) => string,
  ): Promise<{ released: boolean; stillHeld: boolean }> {
    const perGroup = splitByGroup(this.ref, this.fences);
    const results = await Promise.allSettled(
      this.ref.groups.map((g, i) => g.release(this.ref.owner, perGroup[i]!, opId(i))),
    );
    const failures = rejections(results);
    if (failures.length > 0) throw groupFailure(failures);
    const answers = results.map(
      (r) => (r as PromiseFulfilledResult<{ released: boolean[]; remaining: number[] }>).value,
    );
    return {
      released: answers.every((a) => a.released.every(Boolean)),
      stillHeld: answers.every((a) => a.remaining.every((c) => c > 0)),
    };
  }

  serialize(): SerializedMultiLease {
    return {
      v: 1,
      kind: "multi-lock",
      prefix: this.ref.ctx.prefix,
      names: this.ref.names,
      fences: this.fences,
      owner: this.ref.owner,
      leaseMs: this.leaseMs,
      expiresAt: wallExpiry(this.lease, this.ref.ctx.wallClock),
      versions: [...this.versions],
    };
  }

  /** `extend(ms)` set a new lease: the keeper renews at a third of it from now on (finding 7). */
  setLeaseMs(ms: number): void {
    this.#keeping.setLeaseMs(ms);
  }
}
