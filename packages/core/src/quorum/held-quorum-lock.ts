import { now } from "../engine/clock.ts";
import { NotHeldError, QuorumError } from "../errors.ts";
import { releaseQuietly } from "../lease/dispose.ts";
import { HoldView } from "../lease/hold-view.ts";
import { checkLeaseWithinQuarantine } from "../quarantine/quarantine.ts";
import { validateMs } from "../validate.ts";
import type { QuorumHoldState } from "./hold-state.ts";
import { checkLeaseAgainstTimeout } from "./quorum-ref.ts";
import type { HeldQuorumLock, SerializedQuorumLease } from "./types.ts";

/** A quorum grant as the caller sees it. */
export class HeldQuorumLockView extends HoldView implements HeldQuorumLock {
  readonly #hold: QuorumHoldState;
  #released = false;

  constructor(hold: QuorumHoldState) {
    super(hold);
    this.#hold = hold;
  }

  get remainingMs(): number {
    return this.#hold.lease.active ? Math.max(0, this.#hold.lease.deadline - now()) : 0;
  }

  async release(): Promise<void> {
    const hold = this.#hold;
    if (this.#released)
      throw new NotHeldError(
        this.name,
        `"${this.name}" was already released by this HeldQuorumLock`,
      );
    this.#released = true;
    const { outcome, answers } = await hold.releaseRound();
    if (outcome === "ok") {
      hold.end();
      hold.ref.ctx.emit({
        type: "released",
        name: this.name,
        fence: hold.fence,
        remainingCount: 0,
      });
      return;
    }
    hold.lease.lose(outcome === "lost" ? "gone" : "release-failed");
    hold.end();
    if (outcome === "lost")
      throw new NotHeldError(
        this.name,
        `quorum lock "${this.name}" was no longer held by a majority`,
      );
    throw new QuorumError(this.name, "release", "unreachable", hold.ref.majority, answers);
  }

  async extend(ms: number): Promise<void> {
    validateMs("ms", ms, { min: 1 });
    const hold = this.#hold;
    checkLeaseAgainstTimeout(hold.ref, "ms", ms);
    for (const db of hold.ref.dbs) checkLeaseWithinQuarantine(db.ctx, "ms", ms);
    // A resumed hold may renew before it is trusted: that renewal is what makes it trusted.
    if (this.#released || (!hold.lease.active && !hold.provisional))
      throw new NotHeldError(this.name);
    const { outcome, answers } = await hold.extendRound(ms);
    if (outcome === "lost") {
      hold.lease.lose("gone");
      throw new NotHeldError(
        this.name,
        `quorum lock "${this.name}" is no longer held by a majority`,
      );
    }
    if (outcome === "unreachable")
      throw new QuorumError(this.name, "extend", "unreachable", hold.ref.majority, answers);
    // The databases' renewals moved the validity themselves; the keeper follows the new lease.
    hold.setLeaseMs(ms);
    hold.ref.ctx.emit({ type: "renewed", name: this.name, fence: hold.fence, leaseMs: ms });
  }

  toJSON(): SerializedQuorumLease {
    return this.#hold.serialize();
  }

  /** Releases on scope exit and never throws: it must not replace the caller's own error. */
  async [Symbol.asyncDispose](): Promise<void> {
    if (this.#released) return;
    await releaseQuietly(() => this.release(), {
      emit: this.#hold.ref.ctx.emit,
      name: this.name,
      fence: this.fence,
    });
  }
}
