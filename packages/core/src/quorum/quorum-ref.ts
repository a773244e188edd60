import type { ClientContext } from "../client-context.ts";
import { asError, InvalidArgumentError, type QuorumAnswer } from "../errors.ts";
import type { QuorumDatabase } from "./calls.ts";
import { DEFAULT_QUORUM_OPTIONS } from "./types.ts";

/** Everything needed to talk about one quorum lock across its databases. */
export interface QuorumRef {
  readonly name: string;
  readonly dbs: readonly QuorumDatabase[];
  /** ⌊N/2⌋ + 1. */
  readonly majority: number;
  readonly driftFactor: number;
  /** As given; otherwise derived from each lease by `timeoutFor`. */
  readonly requestTimeoutMs: number | undefined;
  /** The first client's context: default lease, keeper, wait strategy, events, background work. */
  readonly ctx: ClientContext;
}

export const majorityOf = (n: number): number => Math.floor(n / 2) + 1;

/** Redlock's allowance for clock drift: lease · factor + 2 ms. */
export function driftMs(ref: QuorumRef, leaseMs: number): number {
  return Math.round(leaseMs * ref.driftFactor) + DEFAULT_QUORUM_OPTIONS.driftFloorMs;
}

export function timeoutFor(ref: QuorumRef, leaseMs: number): number {
  if (ref.requestTimeoutMs !== undefined) return ref.requestTimeoutMs;
  const d = DEFAULT_QUORUM_OPTIONS;
  return Math.max(
    1,
    Math.min(
      Math.max(Math.floor(leaseMs / d.timeoutDivisor), d.minTimeoutMs),
      Math.floor(leaseMs / 2),
    ),
  );
}

/** Each request must be able to finish well inside the lease it is about. */
export function checkLeaseAgainstTimeout(ref: QuorumRef, argument: string, leaseMs: number): void {
  const timeout = timeoutFor(ref, leaseMs);
  if (timeout >= leaseMs) {
    throw new InvalidArgumentError(
      argument,
      `must be longer than the quorum's requestTimeoutMs (${timeout} ms), got ${leaseMs} ms`,
    );
  }
}

export interface RoundResult<T> {
  readonly db: QuorumDatabase;
  readonly value?: T;
  readonly error?: Error;
}

/** Runs `fn` on every database at once and waits for all to settle (each bounded by its timeout). */
export async function round<T>(
  dbs: readonly QuorumDatabase[],
  fn: (db: QuorumDatabase) => Promise<T>,
): Promise<RoundResult<T>[]> {
  const settled = await Promise.allSettled(dbs.map((db) => fn(db)));
  return settled.map((s, i) =>
    s.status === "fulfilled"
      ? { db: dbs[i]!, value: s.value }
      : { db: dbs[i]!, error: asError(s.reason) },
  );
}

/** One database's answer in a round, for the tally and for `QuorumError.answers`. */
export function answerOf<T>(
  r: RoundResult<T>,
  status: (value: T) => QuorumAnswer["status"],
): QuorumAnswer {
  return r.error
    ? { database: r.db.index, status: "error", error: r.error }
    : { database: r.db.index, status: status(r.value as T) };
}
