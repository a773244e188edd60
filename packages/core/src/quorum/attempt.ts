import { now } from "../engine/clock.ts";
import type { QuorumAnswer } from "../errors.ts";
import { randomId } from "../ids.ts";
import { acquisitionOp, commit, phase1, release, type Phase1Reply } from "./calls.ts";
import { answerOf, driftMs, round, timeoutFor, type QuorumRef } from "./quorum-ref.ts";

export interface QuorumGrant {
  readonly token: string;
  readonly fence: number;
  /** When the attempt started (monotonic ms): validity counts from here. */
  readonly startedAt: number;
  /** lease − drift: the validity at `startedAt`. */
  readonly validMs: number;
  /** The acquire's deadline on each database (its own clock), for the release's tombstone. */
  readonly deadlines: AcquireDeadlines;
  /** Index of each database that granted: the hold's lease runs there (and only there). */
  readonly grantedOn: readonly number[];
}

/** Per database index: the latest deadline the acquisition's copies carried there (server ms). */
export type AcquireDeadlines = readonly (number | undefined)[];

export interface QuorumFailure {
  /** busy: a majority answered and someone else holds it; unreachable: too few answered or committed; validity: granted too late. */
  readonly kind: "busy" | "unreachable" | "validity";
  readonly answers: readonly QuorumAnswer[];
  /** Shortest remaining lease among the busy answers (0 when none). */
  readonly pttl: number;
  /** Some database refused because of its restart quarantine (it lost its data). */
  readonly quarantined: boolean;
}

/**
 * One attempt, Redlock's steps with a fence that survives changing majorities:
 * 1. take the lock on every database at once (each request bounded by a short timeout), each
 *    answering the fence it would accept next;
 * 2. with a majority, store the largest candidate back on every database that granted, and need
 *    a majority of those writes: any later majority overlaps this one, so it reads a larger value;
 * 3. validity = lease − time since step 1 started − drift; a grant with no validity left is refused.
 * Any failure releases on every database (also those that did not answer: the request may have run).
 */
export async function attemptQuorum(
  ref: QuorumRef,
  leaseMs: number,
): Promise<{ granted: QuorumGrant } | { failed: QuorumFailure }> {
  const token = randomId();
  const timeoutMs = timeoutFor(ref, leaseMs);
  const startedAt = now();
  // One operation per database: the same id (the token), a deadline from that database's clock.
  const ops = ref.dbs.map(() => acquisitionOp(token));
  const deadlines = (): AcquireDeadlines => ops.map((op) => op.deadline);
  const first = await round(ref.dbs, (db) => phase1(db, ops[db.index]!, leaseMs, timeoutMs));
  const answers = first.map((r) => answerOf(r, phase1Status));
  const granted = first.filter((r) => r.value?.status === "granted");
  if (granted.length < ref.majority) {
    await releaseEverywhere(ref, token, timeoutMs, deadlines());
    // A quarantined database is busy for as long as its quarantine lasts.
    const busy = first.flatMap((r) =>
      r.value?.status === "busy" || r.value?.status === "quarantined" ? [r.value.pttl] : [],
    );
    const answered = first.filter((r) => r.value !== undefined).length;
    const kind = busy.length > 0 && answered >= ref.majority ? "busy" : "unreachable";
    const quarantined = first.some((r) => r.value?.status === "quarantined");
    return {
      failed: {
        kind,
        answers,
        pttl: busy.length > 0 ? Math.max(0, Math.min(...busy)) : 0,
        quarantined,
      },
    };
  }
  const validMs = leaseMs - driftMs(ref, leaseMs);
  const expired = () => validMs - (now() - startedAt) <= 0;
  if (expired()) return refuse(ref, token, timeoutMs, deadlines(), "validity", answers);
  const fence = Math.max(...granted.map((r) => (r.value as { candidate: number }).candidate));
  const second = await round(
    granted.map((r) => r.db),
    (db) => commit(db, token, fence, timeoutMs),
  );
  const byDb = new Map(
    second.map((r) => [r.db.index, answerOf(r, (ok) => (ok ? "committed" : "not-held"))]),
  );
  const merged = answers.map((a) => byDb.get(a.database) ?? a);
  if (second.filter((r) => r.value === true).length < ref.majority)
    return refuse(ref, token, timeoutMs, deadlines(), "unreachable", merged);
  if (expired()) return refuse(ref, token, timeoutMs, deadlines(), "validity", merged);
  const grantedOn = granted.map((r) => r.db.index);
  return { granted: { token, fence, startedAt, validMs, deadlines: deadlines(), grantedOn } };
}

async function refuse(
  ref: QuorumRef,
  token: string,
  timeoutMs: number,
  deadlines: AcquireDeadlines,
  kind: QuorumFailure["kind"],
  answers: QuorumAnswer[],
): Promise<{ failed: QuorumFailure }> {
  await releaseEverywhere(ref, token, timeoutMs, deadlines);
  return { failed: { kind, answers, pttl: 0, quarantined: false } };
}

function phase1Status(reply: Phase1Reply): QuorumAnswer["status"] {
  return reply.status;
}

/**
 * Releases `token` on every database (also those that did not answer the acquire: a copy may
 * have run, or may still), tombstoning the acquisition there; returns the round's answers.
 * Never throws.
 */
export async function releaseEverywhere(
  ref: QuorumRef,
  token: string,
  timeoutMs: number,
  deadlines: AcquireDeadlines = [],
): Promise<QuorumAnswer[]> {
  const results = await round(ref.dbs, (db) => release(db, token, deadlines[db.index], timeoutMs));
  return results.map((r) => answerOf(r, (ok) => (ok ? "released" : "not-held")));
}
