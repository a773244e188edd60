import { AbortedError, OutcomeUnknownError } from "../errors.ts";
import { randomId } from "../ids.ts";
import { trackUndo } from "../lock/acquire-tracking.ts";
import type { AttemptOutcome, ServerHint } from "../wait/wait-loop.ts";
import type { GroupGrant, SlotGroup } from "./group.ts";
import { groupFailure, rejections } from "./group-failures.ts";
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
  /** Entered on grant messages (`joins.ts`): unclaimed until the hold's first renewal. */
  readonly pushed?: { readonly rttMs: number };
}

interface Taken {
  readonly group: SlotGroup;
  readonly opId: string;
  readonly grant?: GroupGrant;
}

/** Where a waiting multi-lock is queued: its first group (one name), and the attempt that queued it. */
export interface QueuedAt {
  readonly group: SlotGroup;
  readonly opId: string;
}

/** How a waiting attempt queues, and what it knows. */
export interface AttemptWait {
  readonly returnWithinMs: number;
  /** Set when the attempt left the waiter queued at the first group. */
  queuedAt: QueuedAt | undefined;
  /**
   * The first group's release handed it to this waiter (its grant message came): it holds the
   * gate, so the attempt asks every group at once (one round trip, not one per group).
   */
  granted: boolean;
}

/**
 * One all-or-none attempt. Groups are taken one after another in the multi-lock's fixed order;
 * when one is busy, the groups already taken are given back before the attempt returns, so a
 * waiter never holds part of its names while it sleeps (no hold-and-wait, hence no deadlock).
 * The first group is the gate: no waiter touches a later one before it took the first, so a
 * waiter handed the first is not turned away by others grabbing the rest. With `wait`, a busy
 * first group of one name queues the waiter, as a Lock waiter: its release then hands that name
 * to the waiter (a grant reserved for the claim window, announced on the name's channel), whose
 * next attempt claims it and takes the rest at once (`wait.granted`). `asked.later` is set when
 * the attempt asked any group after the first.
 */
export async function attemptAll(
  ref: MultiRef,
  leaseMs: number,
  signal: AbortSignal | undefined,
  deadline: number,
  wait?: AttemptWait,
  asked?: { later: boolean },
): Promise<AttemptOutcome<MultiGrant>> {
  const at = ref.groups.map((group) => ({ group, opId: randomId() }));
  if (wait !== undefined) wait.queuedAt = undefined; // set again below while still queued
  const how = { signal, deadline };
  const ask = ({ group, opId }: (typeof at)[number], i: number) => {
    if (i > 0 && asked !== undefined) asked.later = true;
    return group.acquire(ref.owner, leaseMs, opId, how, i === 0 ? wait : undefined);
  };
  const taken: Taken[] = [];
  /** The first group in order that answered busy, and its answer. */
  let busy: { index: number; hint: ServerHint } | undefined;
  if (wait?.granted === true) {
    const settled = await Promise.allSettled(at.map(ask));
    const failures: unknown[] = [];
    settled.forEach((s, i) => {
      const { group, opId } = at[i]!;
      if (s.status === "rejected") {
        failures.push(s.reason);
        if (s.reason instanceof AbortedError || s.reason instanceof OutcomeUnknownError)
          taken.push({ group, opId });
      } else if ("busy" in s.value) busy ??= { index: i, hint: s.value.busy };
      else taken.push({ group, opId, grant: s.value.granted });
    });
    if (failures.length > 0) {
      void rollbackInBackground(ref, taken);
      throw groupFailure(failures);
    }
  } else {
    for (const [i, one] of at.entries()) {
      let outcome;
      try {
        outcome = await ask(one, i);
      } catch (error) {
        // This request may have run: undo it with the others, in the background.
        if (error instanceof AbortedError || error instanceof OutcomeUnknownError) taken.push(one);
        void rollbackInBackground(ref, taken);
        throw error;
      }
      if ("busy" in outcome) {
        busy = { index: i, hint: outcome.busy };
        break;
      }
      taken.push({ ...one, grant: outcome.granted });
    }
  }
  if (busy !== undefined) {
    await rollback(ref, taken);
    // the first group answered busy with a place in its queue: the waiter is queued there
    if (wait !== undefined && busy.index === 0 && busy.hint.position > 0) wait.queuedAt = at[0];
    return { busy: busy.hint };
  }
  return { granted: combine(taken) };
}

/** Leaves the queue the waiter joined at `at` (the abandon of that attempt), in the background. */
export function leaveInBackground(ref: MultiRef, at: QueuedAt): Promise<void> {
  return rollbackInBackground(ref, [at]);
}

/** Gives back what this attempt took. Throws every failure (`groupFailure`) after trying every group. */
export async function rollback(ref: MultiRef, taken: readonly Taken[]): Promise<void> {
  const results = await Promise.allSettled(taken.map((t) => t.group.abandon(ref.owner, t.opId)));
  const failures = rejections(results);
  if (failures.length > 0) throw groupFailure(failures);
}

/**
 * Gives back what `taken` took, in the background; the handle's next acquire waits for it (see
 * `trackUndo`: the handle is its `ref`). Resolves when done, whatever the outcome.
 */
export function rollbackInBackground(ref: MultiRef, taken: readonly Taken[]): Promise<void> {
  if (taken.length === 0) return Promise.resolve();
  const work = rollback(ref, taken).then(
    () => ref.ctx.emit({ type: "abandoned", name: ref.label, releasedSomething: true }),
    (error: unknown) => {
      ref.ctx.emit({ type: "abandoned", name: ref.label, releasedSomething: false });
      throw error; // told as `background-failed`
    },
  );
  ref.ctx.background(work);
  const done = work.catch(() => undefined);
  trackUndo(ref, done);
  return done;
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
