import { newOperation } from "../engine/operation.ts";
import { BackendError, NotHeldError } from "../errors.ts";
import { loseUnlessUnknown, releaseQuietly } from "../lease/dispose.ts";
import { HoldView } from "../lease/hold-view.ts";
import { checkLeaseWithinQuarantine } from "../quarantine/quarantine.ts";
import { validateMs } from "../validate.ts";
import type { LockHoldState } from "./hold-state.ts";
import { callsOf } from "./calls.ts";
import type { HeldLock, SerializedLease } from "./types.ts";

/** One hold, as the caller sees it. Nested holds of one acquisition share a `LockHoldState`. */
export class HeldLockView extends HoldView implements HeldLock {
  readonly #hold: LockHoldState;
  #released = false;

  constructor(hold: LockHoldState) {
    super(hold);
    this.#hold = hold;
    hold.attach();
  }

  async release(): Promise<void> {
    const hold = this.#hold;
    if (this.#released)
      throw new NotHeldError(this.name, `"${this.name}" was already released by this HeldLock`);
    this.#released = true;
    if (!hold.lease.active && hold.lease.signal.aborted && !hold.resumed) {
      // The holder was already told the lease is gone (signal aborted); whatever the server still
      // has expires within moments. Saying "released" now would contradict the signal.
      hold.detach(0);
      throw new NotHeldError(
        this.name,
        `"${this.name}" was lost before release: ${String((hold.lease.signal.reason as Error).message)}`,
      );
    }
    // A deferred claim not sent yet would land after the release, find the hold gone and abort
    // the signal of a hold that was released: drop it (see push-grant.ts).
    hold.pendingClaim?.cancel();
    let result: { released: boolean; remaining: number };
    try {
      result = await callsOf(hold.ref).release(hold.ref, hold.fence, newOperation());
    } catch (error) {
      // Unknown outcome: the lease will run out on its own; the holder must not believe it holds.
      hold.lease.lose("release-failed", error);
      hold.detach(0);
      throw error;
    }
    if (!result.released) {
      hold.lease.lose("gone");
      hold.detach(0);
      throw new NotHeldError(this.name);
    }
    hold.ref.ctx.emit({
      type: "released",
      name: this.name,
      fence: hold.fence,
      remainingCount: result.remaining,
    });
    hold.detach(result.remaining);
  }

  async extend(ms: number): Promise<void> {
    validateMs("ms", ms, { min: 1 });
    const hold = this.#hold;
    checkLeaseWithinQuarantine(hold.ref.ctx, "ms", ms);
    // A resumed hold may renew before it is trusted (that renewal is what makes it trusted), and
    // after: its local lease may have ended at resume, which says nothing about the server's.
    if (this.#released || (!hold.lease.active && !hold.resumed)) throw new NotHeldError(this.name);
    const outcome = await hold.renew(ms);
    if (outcome === "gone") throw new NotHeldError(this.name);
    if (outcome === "stale")
      throw new BackendError(
        `extend "${this.name}" lost twice to another renewal of the same lease; the lease is as that renewal set it`,
      );
    hold.setLeaseMs(ms);
    hold.ref.ctx.emit({ type: "renewed", name: this.name, fence: hold.fence, leaseMs: ms });
  }

  toJSON(): SerializedLease {
    return this.#hold.serialize();
  }

  /** Releases on scope exit and never throws: it must not replace the caller's own error. */
  async [Symbol.asyncDispose](): Promise<void> {
    if (this.#released) return;
    const report = { emit: this.#hold.ref.ctx.emit, name: this.name, fence: this.fence };
    await releaseQuietly(() => this.release(), report, loseUnlessUnknown(this.#hold.lease));
  }
}
