import { AbortedError, OutcomeUnknownError } from "../errors.ts";
import { randomId } from "../ids.ts";
import type { AttemptOutcome } from "../wait/wait-loop.ts";
import type { GroupGrant, SlotGroup } from "./group.ts";
import type { MultiRef } from "./multi-ref.ts";

/** Every name taken: fences in `ref.names` order, and the earliest moment a part may expire. */
export interface MultiGrant {
  readonly fences: readonly number[];
  /** Each lock's lease version after the grant, in `ref.names` order. */
  readonly versions: readonly number[];
  /** True when every name was re-entered (the handle already held them all). */
  readonly reentered: boolean;
  /** Send time of the first group's request (monotonic ms). */
  readonly sentAt: number;
  /** Monotonic ms at which the first of the parts may expire: min over groups of sentAt + lease. */
  readonly deadline: number;
}

interface Taken {
  readonly group: SlotGroup;
  readonly opId: string;
  readonly grant?: GroupGrant;
}

/**
 * One all-or-none attempt. Groups are taken one after another in the multi-lock's fixed order;
 * when one is busy, the groups already taken are given back before the attempt returns, so a
 * waiter never holds part of its names while it sleeps (no hold-and-wait, hence no deadlock).
 */
export async function attemptAll(
  ref: MultiRef,
  leaseMs: number,
  signal: AbortSignal | undefined,
  deadline: number,
): Promise<AttemptOutcome<MultiGrant>> {
  const taken: Taken[] = [];
  for (const group of ref.groups) {
    const opId = randomId();
    let outcome;
    try {
      outcome = await group.acquire(ref.owner, leaseMs, opId, { signal, deadline });
    } catch (error) {
      // This request may have run: undo it with the others, in the background.
      if (error instanceof AbortedError || error instanceof OutcomeUnknownError)
        taken.push({ group, opId });
      rollbackInBackground(ref, taken);
      throw error;
    }
    if ("busy" in outcome) {
      await rollback(ref, taken);
      return { busy: outcome.busy };
    }
    taken.push({ group, opId, grant: outcome.granted });
  }
  return { granted: combine(taken) };
}

/** Gives back what this attempt took. Throws the first failure after trying every group. */
export async function rollback(ref: MultiRef, taken: readonly Taken[]): Promise<void> {
  const results = await Promise.allSettled(taken.map((t) => t.group.abandon(ref.owner, t.opId)));
  const failed = results.find((r): r is PromiseRejectedResult => r.status === "rejected");
  if (failed) throw failed.reason;
}

function rollbackInBackground(ref: MultiRef, taken: readonly Taken[]): void {
  if (taken.length === 0) return;
  ref.ctx.background(
    rollback(ref, taken).then(
      () => ref.ctx.emit({ type: "abandoned", name: ref.label, releasedSomething: true }),
      () => ref.ctx.emit({ type: "abandoned", name: ref.label, releasedSomething: false }),
    ),
  );
}

function combine(taken: readonly Taken[]): MultiGrant {
  const grants = taken.map((t) => t.grant!);
  return {
    fences: grants.flatMap((g) => g.fences),
    versions: grants.flatMap((g) => g.versions),
    reentered: grants.every((g) => g.reentered.every(Boolean)),
    sentAt: Math.min(...grants.map((g) => g.sentAt)),
    deadline: Math.min(...grants.map((g) => g.sentAt + Math.max(g.pttl, 0))),
  };
}
