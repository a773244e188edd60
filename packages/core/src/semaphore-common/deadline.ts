import type { ClientContext } from "../config.ts";
import type { Operation } from "../engine/operation.ts";

/** The latest deadline any copy of `op` can carry (it may never have been sent). */
export function deadlineOf(ctx: Pick<ClientContext, "clock" | "policy">, op: Operation): number {
  return op.deadline ?? Math.ceil(ctx.clock.upper() + ctx.policy.retryWindowMs);
}
