import { now } from "../engine/clock.ts";
import { InvalidArgumentError } from "../errors.ts";
import type { Keeper, KeepTask } from "../lease/keeper.ts";
import { validateMs } from "../validate.ts";
import type { KeepableHold } from "./keepable-hold.ts";
import { safeSink, type KeeperEventSink } from "./keeper-events.ts";
import type { LeaseKeeperClient } from "./lease-keeper-client.ts";
import type { KeepOptions } from "./protocol.ts";
import { abortedWithin, renewUntil } from "./renew-until.ts";

/** `ctx.waitUntil`, or `waitUntil` from `cloudflare:workers` / `@vercel/functions`. */
export type WaitUntil = (promise: Promise<unknown>) => void;

/** Where a lease goes when the invocation's budget runs out. */
export interface HandoffOptions extends KeepOptions {
  /** The Durable Object keeper (`keeperFromEnv(env)`, or `leaseKeeperClient(httpTransport(…))`). */
  readonly keeper: LeaseKeeperClient;
}

/** Options of `budgetKeeper`, the runtime-neutral core of the `waitUntil` keepers. */
export interface BudgetKeeperOptions {
  /** Registers the renewal loop so the runtime lets it run after the response. */
  readonly waitUntil: WaitUntil | { waitUntil: WaitUntil };
  /** Monotonic ms (`performance.now()`) by which this invocation's keeping must be over, given when it started. */
  readonly stopAt: (startedAt: number) => number;
  /** Hand the lease to the Durable Object keeper before the budget runs out. @default undefined (let the lease run out) */
  readonly handoff?: HandoffOptions;
  /** Renewals and the hand-over start no later than this long before `stopAt`. @default 1_000 */
  readonly marginMs?: number;
  readonly onEvent?: KeeperEventSink;
}

export const DEFAULT_BUDGET_KEEPER = Object.freeze({ marginMs: 1_000 });

/**
 * Renews in the background of this invocation (via `waitUntil`) until the hold ends or the
 * budget is spent; then either hands the lease over, or stops and lets the lease run out —
 * `held.signal` aborts at its local deadline, so the loss is never silent.
 */
export function budgetKeeper(options: BudgetKeeperOptions): Keeper {
  const waitUntil = resolveWaitUntil(options.waitUntil);
  if (typeof options.stopAt !== "function")
    throw new InvalidArgumentError("options.stopAt", "must be a function");
  const marginMs = validateMs(
    "options.marginMs",
    options.marginMs ?? DEFAULT_BUDGET_KEEPER.marginMs,
  );
  const handoff = options.handoff && checkHandoff(options.handoff);
  const emit = safeSink(options.onEvent);
  return {
    keep(task) {
      const stopAt = options.stopAt(now());
      waitUntil(keepWithin(task, stopAt - marginMs, stopAt, handoff, emit));
    },
  };
}

async function keepWithin(
  task: KeepTask,
  cutoff: number,
  stopAt: number,
  handoff: HandoffOptions | undefined,
  emit: KeeperEventSink,
): Promise<void> {
  if ((await renewUntil(task, cutoff)) === "ended") return;
  if (!handoff) return emit({ type: "budget-exhausted", name: task.name });
  // Whatever the kind: the keeper client refuses one it cannot keep (a quorum-lock hold), and
  // that refusal is a "handoff-failed": the lease runs out and held.signal says so.
  const lease = task.lease() as KeepableHold;
  try {
    const status = await handoff.keeper.keep(lease, keepOptions(handoff));
    emit({ type: "handed-off", name: task.name, status });
    if (status.state !== "kept") return;
    task.handedOver?.();
  } catch (error) {
    return emit({ type: "handoff-failed", name: task.name, error });
  }
  // While this invocation lives, a release here is forwarded so the keeper stops at once.
  if (!(await abortedWithin(task.signal, stopAt - now()))) return;
  try {
    emit({
      type: "release-forwarded",
      name: task.name,
      status: await handoff.keeper.release(lease),
    });
  } catch (error) {
    emit({ type: "release-forwarded", name: task.name, error });
  }
}

function keepOptions(h: HandoffOptions): KeepOptions {
  return {
    maxHoldMs: h.maxHoldMs,
    ...(h.heartbeatMs !== undefined && { heartbeatMs: h.heartbeatMs }),
    ...(h.leaseMs !== undefined && { leaseMs: h.leaseMs }),
  };
}

function checkHandoff(h: HandoffOptions): HandoffOptions {
  if (typeof h.keeper?.keep !== "function")
    throw new InvalidArgumentError(
      "options.handoff.keeper",
      "must be a lease keeper client (keeperFromEnv(env))",
    );
  validateMs("options.handoff.maxHoldMs", h.maxHoldMs, { min: 1 });
  return h;
}

export function resolveWaitUntil(w: BudgetKeeperOptions["waitUntil"]): WaitUntil {
  if (typeof w === "function") return w;
  if (typeof w === "object" && w !== null && typeof w.waitUntil === "function")
    return (p) => w.waitUntil(p);
  throw new InvalidArgumentError(
    "options.waitUntil",
    "must be ctx.waitUntil (bound), a function, or an object with waitUntil()",
  );
}
