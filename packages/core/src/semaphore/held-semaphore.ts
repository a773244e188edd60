import { NotHeldError, OutcomeUnknownError, PermitsRefusedError } from "../errors.ts";
import type { Operation } from "../engine/operation.ts";
import { releaseQuietly } from "../lease/dispose.ts";
import { runChange, type SemaphoreRef } from "./calls.ts";
import { nextReleaseOp } from "./release-op.ts";
import type { SemaphoreHold, SerializedSemaphoreHold } from "./types.ts";

/**
 * Permits taken by one acquire. Its release is one operation fixed at acquisition (its id and
 * deadline), so a retried or repeated release (also from another invocation, via `toJSON`)
 * applies at most once. Only a release known not to have applied (`BackendError`) moves the hold
 * to the id's deterministic successor (see `nextReleaseOp`), so it can be repeated at all.
 */
export class SemaphoreHoldView implements SemaphoreHold {
  readonly #ref: SemaphoreRef;
  readonly permits: number;
  #releaseOp: Operation;
  #state: "held" | "releasing" | "released" = "held";

  constructor(ref: SemaphoreRef, permits: number, releaseOp: Operation) {
    this.#ref = ref;
    this.permits = permits;
    this.#releaseOp = releaseOp;
  }

  get name(): string {
    return this.#ref.name;
  }

  async release(): Promise<void> {
    if (this.#state !== "held")
      throw new NotHeldError(
        this.name,
        `these ${this.permits} permit(s) of "${this.name}" were already released`,
      );
    this.#state = "releasing";
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
    this.#ref.ctx.emit({
      type: "released",
      name: this.name,
      fence: 0,
      remainingCount: result.available,
    });
  }

  toJSON(): SerializedSemaphoreHold {
    const { ctx, name } = this.#ref;
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
