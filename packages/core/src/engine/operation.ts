import { randomId } from "../ids.ts";

/**
 * One intent of a caller (an acquire attempt, a release, a renewal): every copy the engine sends
 * for it carries the same id and deadline, so at most one applies, and none after `deadline`.
 */
export interface Operation {
  readonly id: string;
  /** The latest deadline any copy carried (server ms); set by the engine at the first send. */
  deadline: number | undefined;
}

export function newOperation(): Operation {
  return { id: randomId(), deadline: undefined };
}

/** First slot of a protocol reply that the engine answers itself, before any decoder. */
export const LATE = -100;
export const TOMBSTONED = -101;
/** Settle found no record after the record could have expired: nothing can be known. */
export const TOO_LATE_TO_SETTLE = -102;
