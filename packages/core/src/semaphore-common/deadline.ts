import type { Operation } from "../engine/operation.ts";
import { latestDeadline, type ClockSource } from "../engine/server-clocks.ts";

/**
 * The latest deadline any copy of `op` can carry (it may never have been sent), on the clock of
 * the server that holds `key` (its node, on a cluster).
 */
export function deadlineOf(
  ctx: ClockSource & { readonly policy: { readonly retryWindowMs: number } },
  op: Operation,
  key: string,
): number {
  return latestDeadline(ctx, op, key);
}
