import { now } from "../engine/clock.ts";
import { newOperation, type Operation } from "../engine/operation.ts";
import { NotHeldError } from "../errors.ts";
import { holdLease, renewFailed } from "../lease/hold-lease.ts";
import type { LeaseState } from "../lease/lease-state.ts";
import { claimInBackground } from "../wait/pushed-grant.ts";
import { runAbandon, runAcquire, type SemaphoreRef } from "./calls.ts";

/**
 * Permits a waiter entered on the message of a direct grant (see acquire.ts), until the claim
 * turns the grant into permits taken for good. The grant is reserved for the waiter only until
 * its claim window ends, and an unclaimed grant goes back to the pool: so until a claim confirms
 * it, `lease` ends at the window's local end, and its `signal` aborts there, or at once when the
 * claim finds the grant gone. The claim is one operation (`op`, a try-only acquire under the
 * waiter's id); while its outcome is not known, the way to give the permits back is to abandon
 * it (`giveBack`): a tombstone stops a late copy, and whatever it or the grant still holds comes
 * back, exactly once.
 *
 * A claim resumed from `toJSON()` has no lease and sends nothing itself: its hold can only give
 * back.
 */
export class PushedClaim {
  readonly waiter: string;
  readonly op: Operation;
  readonly #ref: SemaphoreRef;
  readonly #permits: number;
  readonly #lease: LeaseState | undefined;
  #outcome: "pending" | "claimed" | "lost" = "pending";
  #givingBack = false;

  constructor(
    ref: SemaphoreRef,
    permits: number,
    claim: { waiter: string; op?: Operation; sentAt?: number; validMs?: number },
  ) {
    this.#ref = ref;
    this.#permits = permits;
    this.waiter = claim.waiter;
    this.op = claim.op ?? newOperation();
    if (claim.sentAt !== undefined && claim.validMs !== undefined) {
      const id = { ctx: ref.ctx, name: ref.name, fence: 0 };
      this.#lease = holdLease(id, claim.sentAt, claim.validMs, () => this.#lost());
    }
  }

  /** Aborts when the permits turn out not to be this holder's (see the class comment). */
  get signal(): AbortSignal | undefined {
    return this.#lease?.signal;
  }

  /** `claimed`: the permits are taken for good, a plain release gives them back. */
  get outcome(): "pending" | "claimed" | "lost" {
    return this.#outcome;
  }

  /**
   * Sends the claim once, in the background, within what is left of the grant (`budgetMs`), as
   * soon as the holder has entered, unless the permits are given back (released) or lost before:
   * a release before the claim abandons the grant instead, one request either way.
   */
  start(budgetMs: number): void {
    const { ctx } = this.#ref;
    const end = now() + budgetMs;
    const lease = this.#lease;
    void claimInBackground(
      (work) => ctx.background(work),
      async () => {
        if (this.#givingBack) return; // a release got there first: the abandon gives them back
        const p = { waiter: this.waiter, permits: this.#permits, queue: false };
        const { reply } = await runAcquire(this.#ref, {
          ...p,
          returnWithinMs: 0,
          op: this.op,
          budgetMs: Math.max(1, end - now()),
        });
        if (this.#outcome !== "pending") return; // lost meanwhile: the loss already gave back
        if (reply.status === "granted") {
          this.#outcome = "claimed";
          this.#lease?.finish();
        } else {
          // The grant lapsed before the claim, and nothing was free for a fresh take: nothing
          // was taken, so nothing needs undoing.
          this.#outcome = "lost";
          this.#lease?.lose("gone");
        }
      },
      lease && { afterMs: 0, onEnd: (fn) => lease.onEnd(fn) },
      renewFailed({ ctx, name: this.#ref.name, fence: 0 }),
    );
  }

  /**
   * Gives the permits back by abandoning the claim; a repeat (another copy of a serialised hold
   * gave back first) changes nothing. Throws `NotHeldError` when there was nothing to give back:
   * the grant lapsed before the claim landed.
   */
  async giveBack(): Promise<void> {
    this.#givingBack = true;
    const { back, again } = await runAbandon(this.#ref, this.waiter, this.#permits, this.op);
    this.#lease?.finish();
    if (back === 0 && !again) throw this.lostError();
  }

  lostError(): NotHeldError {
    const { name } = this.#ref;
    return new NotHeldError(
      name,
      `these ${this.#permits} permit(s) of "${name}" were lost: the direct grant the waiter entered on lapsed before its claim landed (hold.signal aborted)`,
    );
  }

  #lost(): void {
    const unknown = this.#outcome === "pending";
    this.#outcome = "lost";
    // A claim whose answer never came may still land, or have landed: undo it, exactly once.
    if (unknown)
      this.#ref.ctx.background(runAbandon(this.#ref, this.waiter, this.#permits, this.op));
  }
}
