import type { ClientContext } from "../client-context.ts";
import type { Operation } from "../engine/operation.ts";
import { opRecordKey } from "../keys.ts";
import { latestDeadline } from "../engine/server-clocks.ts";
import { quarantineKeyFor } from "../quarantine/quarantine.ts";

/**
 * The keys and args both semaphores' abandon scripts take besides their own, for abandoning
 * operation `op` on the semaphore whose state hash is `stateKey`: its operation record, the
 * restart quarantine's sentinel, and the latest deadline any copy of `op` can carry (it may never
 * have been sent), on the clock of the server that holds `stateKey`.
 */
export function abandonSlots(
  ctx: ClientContext,
  op: Operation,
  stateKey: string,
  channelPrefix: string,
) {
  return {
    keys: { op: opRecordKey(stateKey, op.id), sentinel: quarantineKeyFor(ctx, stateKey) },
    args: {
      deadline: latestDeadline(ctx, op, stateKey),
      margin: ctx.recordMarginMs,
      claimMs: ctx.claimWindowMs,
      channelPrefix,
      quarantineMs: ctx.quarantine.ms,
      sentinelTtlMs: ctx.quarantine.sentinelTtlMs,
    },
  };
}
