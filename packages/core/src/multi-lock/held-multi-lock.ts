import { BackendError, InvalidArgumentError, NotHeldError } from "../errors.ts";
import { randomId } from "../ids.ts";
import { loseUnlessUnknown, releaseQuietly } from "../lease/dispose.ts";
import { checkLeaseWithinQuarantine } from "../quarantine/quarantine.ts";
import { validateMs } from "../validate.ts";
import type { MultiLockHoldState } from "./hold-state.ts";
import type { HeldMultiLock, SerializedMultiLease } from "./types.ts";

/** One hold of a multi-lock, as the caller sees it. Nested holds of one acquisition share a `MultiLockHoldState`. */
export class HeldMultiLockView implements HeldMultiLock {
  readonly #hold: MultiLockHoldState;
  readonly fences: Readonly<Record<string, number>>;
  #released = false;

  constructor(hold: MultiLockHoldState) {
    this.#hold = hold;
    this.fences = Object.freeze(
      Object.fromEntries(hold.ref.names.map((name, i) => [name, hold.fences[i]!])),
    );
    hold.attach();
  }

  get names(): readonly string[] {
    return this.#hold.ref.names;
  }
  get signal(): AbortSignal {
    return this.#hold.lease.signal;
  }
  get leaseMs(): number {
    return this.#hold.leaseMs;
  }

  fenceOf(name: string): number {
    const fence = Object.hasOwn(this.fences, name) ? this.fences[name] : undefined;
    if (fence === undefined)
      throw new InvalidArgumentError(
        "name",
        `"${String(name)}" is not one of this multi-lock's names`,
      );
    return fence;
  }

  async release(): Promise<void> {
    const hold = this.#hold;
    const label = hold.ref.label;
    if (this.#released)
      throw new NotHeldError(label, `${label} was already released by this HeldMultiLock`);
    this.#released = true;
    // A deferred claim not sent yet would land after the release, find the hold gone and abort
    // the signal of a hold that was released: drop it (see acquire.ts).
    hold.pendingClaim?.cancel();
    let result: { released: boolean; stillHeld: boolean };
    try {
      const opIds = hold.ref.groups.map(() => randomId());
      result = await hold.releaseAll((i) => opIds[i]!);
    } catch (error) {
      // Unknown outcome somewhere: the leases run out on their own; the holder must not believe it holds.
      hold.lease.lose("release-failed", error);
      hold.detach(false);
      throw error;
    }
    if (!result.released) {
      hold.lease.lose("gone");
      hold.detach(false);
      throw new NotHeldError(
        label,
        `${label}: at least one name was no longer held (the others were released)`,
      );
    }
    hold.ref.ctx.emit({
      type: "released",
      name: label,
      fence: hold.fences[0] ?? 0,
      remainingCount: result.stillHeld ? 1 : 0,
    });
    hold.detach(result.stillHeld);
  }

  async extend(ms: number): Promise<void> {
    validateMs("ms", ms, { min: 1 });
    const hold = this.#hold;
    checkLeaseWithinQuarantine(hold.ref.ctx, "ms", ms);
    // A resumed hold may renew before it is trusted: that renewal is what makes it trusted.
    if (this.#released || (!hold.lease.active && !hold.resumed))
      throw new NotHeldError(hold.ref.label);
    const outcome = await hold.renew(ms);
    if (outcome === "gone")
      throw new NotHeldError(
        hold.ref.label,
        `${hold.ref.label}: at least one name is no longer held`,
      );
    if (outcome === "stale")
      throw new BackendError(
        `extend ${hold.ref.label} lost twice to another renewal of the same lease; the lease is as that renewal set it`,
      );
    hold.setLeaseMs(ms);
    hold.ref.ctx.emit({
      type: "renewed",
      name: hold.ref.label,
      fence: hold.fences[0] ?? 0,
      leaseMs: ms,
    });
  }

  toJSON(): SerializedMultiLease {
    return this.#hold.serialize();
  }

  /** Releases on scope exit and never throws: it must not replace the caller's own error. */
  async [Symbol.asyncDispose](): Promise<void> {
    if (this.#released) return;
    const hold = this.#hold;
    const report = { emit: hold.ref.ctx.emit, name: hold.ref.label, fence: hold.fences[0] ?? 0 };
    await releaseQuietly(() => this.release(), report, loseUnlessUnknown(hold.lease));
  }
}
