import type { Random } from "../../random.ts";
import type { IntentKind } from "../history.ts";
import { pickServerFault, type ServerFaultKind } from "./server-faults.ts";

/** How the adversary delivers one request. */
export type Fate =
  | { readonly kind: "normal" }
  /**
   * Held back `delayMs` before it runs, even after the client gave up on it; with
   * `after: "settle"`, held until its operation's settle has run (`delayMs` at the latest); with
   * `after: "resend"`, until another copy of its operation has run and `delayMs` has passed;
   * with `after: "resend-then-free"`, until another copy has run and then a run has left its
   * resource free (`delayMs` after that copy at the latest).
   */
  | {
      readonly kind: "late";
      readonly delayMs: number;
      readonly after?: "settle" | "resend" | "resend-then-free";
    }
  /** Runs, and a second copy runs again `delayMs` later. */
  | { readonly kind: "duplicate"; readonly delayMs: number }
  /** Runs; the client sees an ambiguous failure instead of the reply. */
  | { readonly kind: "lost-response"; readonly hang: boolean }
  /** Delivered now, and the rest-server itself injects `fault` into it (REST only). */
  | { readonly kind: "server-fault"; readonly fault: ServerFaultKind };

/** Probabilities of each fate, per request; the rest is delivered normally. */
export interface FateMix {
  readonly late: number;
  readonly duplicate: number;
  readonly lostResponse: number;
  /** Upper bound of a late or duplicate copy's delay, ms. */
  readonly maxDelayMs: number;
  /**
   * Of the lost responses, how many hang until the request times out (default 0.5; the rest fail
   * at once): the client hears nothing of a copy that applied for a whole request timeout.
   */
  readonly lostResponseHangs?: number;
  /** Probability that the rest-server injects one of its own faults into the request (REST only). */
  readonly serverFault?: number;
  /**
   * Probability that a call is on a congested path: every copy it sends is held back between
   * `slowDelayMs[0]` and `slowDelayMs[1]` ms, so its retries run out and its copies run after the
   * caller moved on (how a stale renewal or a late grant reaches the server).
   */
  readonly slowIntent?: number;
  readonly slowDelayMs?: readonly [number, number];
  /**
   * Only calls whose first request runs one of these scripts (`family/name`, as the scheduler
   * names them: `lock/release`) may be congested; absent: any call. A world aimed at one kind of
   * operation spends its congestion there, not on the calls that set it up.
   */
  readonly slowScripts?: readonly string[];
  /**
   * On a congested call the settle still gets through (normal fates): its caller hears the
   * tombstone while the call's own copies are still on their way (a settled call's late copy).
   */
  readonly slowSparesSettle?: boolean;
  /**
   * With `slowSparesSettle`: a congested copy runs right after its call's settle has run, not
   * after a drawn delay (`slowDelayMs[1]` is then only its latest). Ordered by the event, not by
   * the clock, a settled call's copy lands after the tombstone however loaded the machine is,
   * and inside its deadline when the client counts a clock error into it.
   */
  readonly slowUntilSettled?: boolean;
  /**
   * With `slowUntilSettled` (and not `slowSparesSettle`): a congested call's settle is lost before
   * it runs, so its caller's outcome stays unknown, and the call's held copies are released once
   * the caller has heard of that loss: they run after `OutcomeUnknownError` when it comes early.
   */
  readonly slowSettleLost?: boolean;
  /**
   * Probability that the first copy of an operation is held back `firstCopyDelayMs` (its later
   * copies get their own fates): the resend overtakes it and answers first, and the first copy
   * runs after its caller acted on that answer (finding 1: a busy answer, then a late grant).
   */
  readonly firstCopyLate?: number;
  /**
   * A late first copy is held `firstCopyDelayMs` and, however loaded the machine, until another
   * copy of its operation (the resend, or the settle) has run: it runs after an answer (or 5 s
   * later, when no resend comes: the invocation ended).
   */
  readonly firstCopyDelayMs?: readonly [number, number];
  /**
   * A late first copy, once overtaken, waits for a run that leaves its resource free (a lock
   * without owner, a semaphore with two permits available) instead of a drawn delay: it then runs
   * where its grant would be real, however loaded the machine (finding 1: a busy answer, then a
   * grant to nobody). `firstCopyDelayMs[1]` bounds the wait.
   */
  readonly firstCopyUntilFree?: boolean;
  /**
   * Only calls of these kinds (and their background work) meet any of the faults above (absent:
   * every call): a world aimed at one race (a resumed hold's first renewal running late, racing
   * extends' lost responses) keeps every other call on time, so its sections get to the race.
   */
  readonly faultKinds?: readonly IntentKind[];
}

export const CALM: FateMix = { late: 0, duplicate: 0, lostResponse: 0, maxDelayMs: 0 };

export function pickFate(random: Random, mix: FateMix, slow = false, firstCopy = false): Fate {
  if (slow && mix.slowDelayMs)
    return {
      kind: "late",
      delayMs: random.int(mix.slowDelayMs[0], mix.slowDelayMs[1]),
      ...(mix.slowUntilSettled ? { after: "settle" as const } : {}),
    };
  if (firstCopy && mix.firstCopyDelayMs && random.chance(mix.firstCopyLate ?? 0))
    return {
      kind: "late",
      delayMs: random.int(mix.firstCopyDelayMs[0], mix.firstCopyDelayMs[1]),
      after: mix.firstCopyUntilFree ? ("resend-then-free" as const) : ("resend" as const),
    };
  const x = random.next();
  const delay = () => random.int(1, mix.maxDelayMs);
  if (x < mix.late) return { kind: "late", delayMs: delay() };
  if (x < mix.late + mix.duplicate) return { kind: "duplicate", delayMs: delay() };
  if (x < mix.late + mix.duplicate + mix.lostResponse)
    return { kind: "lost-response", hang: random.chance(mix.lostResponseHangs ?? 0.5) };
  if (x < mix.late + mix.duplicate + mix.lostResponse + (mix.serverFault ?? 0))
    return { kind: "server-fault", fault: pickServerFault(random) };
  return { kind: "normal" };
}
