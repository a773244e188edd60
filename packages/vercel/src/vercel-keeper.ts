import { budgetKeeper, type BudgetKeeperOptions, type WaitUntil } from "@edgelock/core/hand-over";
import type { Keeper } from "@edgelock/core/lock";
import { validateMs } from "@edgelock/core/options";
import { getDeadline, waitUntil } from "@vercel/functions";

/** Options of `vercelKeeper`. */
export interface VercelKeeperOptions extends Omit<BudgetKeeperOptions, "stopAt" | "waitUntil"> {
  /** @default `waitUntil` from `@vercel/functions` (Edge and Node runtimes; a no-op outside Vercel) */
  readonly waitUntil?: WaitUntil;
  /** The invocation's wall-clock deadline. @default `getDeadline` from `@vercel/functions` */
  readonly getDeadline?: () => Date | undefined;
  /**
   * Budget from the acquire when the runtime tells no deadline. Conservative on purpose: 10 s
   * was the Hobby plan's default maximum duration before Fluid compute.
   * @default 10_000
   */
  readonly fallbackBudgetMs?: number;
}

export const DEFAULT_VERCEL_KEEPER = Object.freeze({ fallbackBudgetMs: 10_000 });

/**
 * Keeps default leases alive in a Vercel Function: renewals every lease/3 under `waitUntil`, up
 * to the invocation's deadline (`getDeadline()`), minus `marginMs`; then a hand-over to the
 * Durable Object keeper over HTTPS when `handoff` is set, else the lease runs out with
 * `held.signal` aborted.
 * @example
 * const edgelock = createClient({ redis: Redis.fromEnv(), keeper: vercelKeeper({ handoff: { keeper: keeperFromEnv(), maxHoldMs: 600_000 } }) });
 */
export function vercelKeeper(options: VercelKeeperOptions = {}): Keeper {
  const fallbackMs = validateMs(
    "options.fallbackBudgetMs",
    options.fallbackBudgetMs ?? DEFAULT_VERCEL_KEEPER.fallbackBudgetMs,
    { min: 1 },
  );
  const deadlineOf = options.getDeadline ?? getDeadline;
  return budgetKeeper({
    ...options,
    waitUntil: options.waitUntil ?? waitUntil,
    stopAt(startedAt) {
      const deadline = deadlineOf()?.getTime();
      // The deadline is wall-clock; the budget runs on the monotonic clock from `startedAt`.
      return deadline !== undefined && Number.isFinite(deadline)
        ? startedAt + (deadline - Date.now())
        : startedAt + fallbackMs;
    },
  });
}
