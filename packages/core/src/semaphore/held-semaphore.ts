import { NotHeldError, OutcomeUnknownError, PermitsRefusedError } from "../errors.ts";
import type { Operation } from "../engine/operation.ts";
import { releaseQuietly } from "../lease/dispose.ts";
import { runChange, type SemaphoreRef } from "./calls.ts";
import type { PushedClaim } from "./pushed-claim.ts";
import { nextReleaseOp } from "./release-op.ts";
import type { SemaphoreHold, SerializedSemaphoreHold } from "./types.ts";

/**
 * Permits taken by one acquire. Its release is one operation fixed at acquisition (its id and
 * deadline), so a retried or repeated release (also from another invocation, via `toJSON`)
 * applies at most once. Only a release known not to have applied (`BackendError`) moves the hold
 * to the id's deterministic successor (see `nextReleaseOp`), so it can be repeated at all.
 *
 * Permits entered on a pushed grant carry its `PushedClaim` until the claim confirms them: until
 * then their release gives back by abandoning the claim, without waiting for its answer (the
 * tombstone stops it if it has not run; what it took comes back if it has), and so does every
 * release once a copy was serialised before the claim confirmed (every copy shares that intent).
 */
export class SemaphoreHoldView implements SemaphoreHold {
  readonly #ref: SemaphoreRef;
  readonly permits: number;
  #releaseOp: Operation;
  readonly #claim: PushedClaim | undefined;
  /** A copy was serialised while the claim was unconfirmed: every copy gives back through it. */
  #claimSerialised: boolean;
  #state: "held" | "releasing" | "released" = "held";
  /** The signal of permits taken by a reply: never aborted (made on first use, not at import). */
  #neverAborted: AbortSignal | undefined;

  constructor(
    ref: SemaphoreRef,
    permits: number,
    releaseOp: Operation,
    claim?: { pending: PushedClaim; serialised: boolean },
  ) {
    this.#ref = ref;
    this.permits = permits;
    this.#releaseOp = releaseOp;
    this.#claim = claim?.pending;
    this.#claimSerialised = claim?.serialised ?? false;
  }

  get name(): string {
    return this.#ref.name;
  }

  get signal(): AbortSignal {
    // Not a module-level constant: workerd refuses an AbortController made at global scope.
    return this.#claim?.signal ?? (this.#neverAborted ??= new AbortController().signal);
  }

  async release(): Promise<void> {
    if (this.#state !== "held")
      throw new NotHeldError(
        this.name,
        `these ${this.permits} permit(s) of "${this.name}" were already released`,
      );
    const claim = this.#claim;
    if (claim?.outcome === "lost" && !this.#claimSerialised) throw claim.lostError();
    this.#state = "releasing";
    if (claim !== undefined && (claim.outcome !== "claimed" || this.#claimSerialised)) {
      try {
        await claim.giveBack();
      } catch (error) {
        // Abandoning is safe to repeat; a lost grant (NotHeldError) is final.
        this.#state = error instanceof NotHeldError ? "released" : "held";
        throw error;
      }
      this.#state = "released";
      return this.#emitReleased(undefined);
    }
    let result;
    try {
      result = await runChange(this.#ref, "release", this.permits, this.#releaseOp);
    } catch (error) {
      // Unknown outcome: calling release() again repeats the same operation id, so it is safe.
      // Known not applied: the next call goes under the successor id (the refused one is dead).
      this.#state = "held";
      this.#releaseOp = nextReleaseOp(this.#releaseOp, error);
      throw error;
    }
    this.#state = "released";
    if (!result.applied) throw new PermitsRefusedError(this.name, "over-release", result);
    this.#emitReleased(result.available);
  }

  #emitReleased(available: number | undefined): void {
    const remainingCount = available ?? -1; // -1: a given-back claim does not count what is free
    this.#ref.ctx.emit({ type: "released", name: this.name, fence: 0, remainingCount });
  }

  toJSON(): SerializedSemaphoreHold {
    const { ctx, name } = this.#ref;
    const claim = this.#claim;
    if (claim !== undefined && (claim.outcome !== "claimed" || this.#claimSerialised))
      this.#claimSerialised = true;
    const giveBackClaim =
      claim !== undefined && this.#claimSerialised
        ? {
            claimWaiter: claim.waiter,
            claimOp: claim.op.id,
            ...(claim.op.deadline === undefined ? {} : { claimDeadline: claim.op.deadline }),
          }
        : {};
    return {
      v: 1,
      kind: "semaphore",
      prefix: ctx.prefix,
      name,
      permits: this.permits,
      releaseOp: this.#releaseOp.id,
      ...(this.#releaseOp.inDoubt && this.#releaseOp.anchor !== undefined
        ? { releaseAnchor: this.#releaseOp.anchor }
        : {}),
      ...giveBackClaim,
    };
  }

  /** Releases on scope exit and never throws: it must not replace the caller's own error. */
  async [Symbol.asyncDispose](): Promise<void> {
    if (this.#state !== "held") return;
    await releaseQuietly(
      () => this.release(),
      { emit: this.#ref.ctx.emit, name: this.name, fence: 0 },
      (error) => {
        if (error instanceof OutcomeUnknownError) this.#retryInBackground();
      },
    );
  }

  /** After an unknown outcome on dispose, retry the same operation once more in the background. */
  #retryInBackground(): void {
    this.#ref.ctx.background(this.release());
  }
}
