import type { ClientContext } from "../client-context.ts";
import { now } from "../engine/clock.ts";
import { asError } from "../errors.ts";
import { testSeams } from "../test-seams.ts";
import { LeaseState } from "./lease-state.ts";
import { keepRenewing, type Renewable } from "./renewal.ts";

/** Who a hold's lease events (`lost`, `renewed`) speak of, and where they go. */
export interface HoldIdentity {
  readonly ctx: Pick<ClientContext, "emit" | "keeper" | "grantEpochs">;
  readonly name: string;
  readonly fence: number;
}

/** The lease of a new hold: its loss emits `lost` under the hold's name and fence, then calls `onLost`. */
export function holdLease(
  id: HoldIdentity,
  sentAt: number,
  validMs: number,
  onLost: () => void,
): LeaseState {
  const lease = new LeaseState(id.name, sentAt, validMs, (error) => {
    id.ctx.emit({ type: "lost", name: id.name, fence: id.fence, reason: error.reason, error });
    onLost();
  });
  // A rollback the client detects loses every hold it knows of (see quarantine/grant-epochs.ts).
  const tracked = id.ctx.grantEpochs.track({ loseToRollback: () => lease.lose("rolled-back") });
  lease.onEnd(() => tracked.forget());
  return lease;
}

/**
 * Hands a hold to the client's keeper until `stop` aborts; each renewal emits `renewed`.
 * Resolves once the keeper took it; rejects with the keeper's error (see `keepRenewing`).
 */
export function keepHold(
  id: HoldIdentity,
  target: Omit<Renewable, "name" | "onRenewed" | "onRenewFailed">,
  stop: AbortSignal,
): Promise<void> {
  const onRenewed = (leaseMs: number) =>
    id.ctx.emit({ type: "renewed", name: id.name, fence: id.fence, leaseMs });
  const onRenewFailed = renewFailed(id);
  return keepRenewing(id.ctx.keeper, { ...target, name: id.name, onRenewed, onRenewFailed }, stop);
}

/** Reports a renewal of the hold that failed in the background (`renew-failed`). */
export function renewFailed(
  id: Pick<HoldIdentity, "name" | "fence"> & {
    readonly ctx: Pick<ClientContext, "emit">;
  },
): (error: unknown) => void {
  return (error) => {
    // Test seam: the fault campaign shows its checker finds such a failure untold.
    if (testSeams.renewFailuresUntold) return;
    id.ctx.emit({
      type: "renew-failed",
      name: id.name,
      fence: id.fence,
      error: asError(error),
    });
  };
}

/** When the lease may expire, on the wall clock: the `expiresAt` of its serialised form. */
export function wallExpiry(lease: LeaseState, wall: () => number = Date.now): number {
  return wall() + Math.max(0, lease.deadline - now());
}
