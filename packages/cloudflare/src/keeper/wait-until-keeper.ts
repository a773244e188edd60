import { budgetKeeper, type BudgetKeeperOptions } from "@edgelock/core/hand-over";
import type { Keeper } from "@edgelock/core/lock";
import { validateMs } from "@edgelock/core/options";

/** Options of `waitUntilKeeper`. */
export interface WaitUntilKeeperOptions extends Omit<BudgetKeeperOptions, "stopAt"> {
  /**
   * How long after the acquire this invocation keeps the lease. Cloudflare lets `waitUntil` work
   * run at most 30 s after the response (or client disconnect), and no API says when that clock
   * started; counting from the acquire, which precedes the response, stays on the safe side.
   * @default 20_000
   */
  readonly budgetMs?: number;
}

export const DEFAULT_WAIT_UNTIL_KEEPER = Object.freeze({ budgetMs: 20_000 });

/**
 * Keeps default leases alive from a Worker: a renewal every lease/3 registered with
 * `ctx.waitUntil`, stopping at release; within `budgetMs`, then a hand-over to the Durable Object
 * keeper when `handoff` is set, else the lease runs out with `held.signal` aborted.
 * @example
 * import { waitUntil } from "cloudflare:workers";
 * const edgelock = createClient({ redis, keeper: waitUntilKeeper({ waitUntil, handoff: { keeper: keeperFromEnv(env), maxHoldMs: 600_000 } }) });
 */
export function waitUntilKeeper(options: WaitUntilKeeperOptions): Keeper {
  const budgetMs = validateMs(
    "options.budgetMs",
    options.budgetMs ?? DEFAULT_WAIT_UNTIL_KEEPER.budgetMs,
    { min: 1 },
  );
  return budgetKeeper({ ...options, stopAt: (startedAt) => startedAt + budgetMs });
}
