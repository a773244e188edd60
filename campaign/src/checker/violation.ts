/** The rules a history can break; each names one guarantee. */
export type Rule =
  | "overlap"
  | "fence-order"
  | "stale-write"
  | "resource"
  | "over-capacity"
  | "read-changed"
  | "hold-count"
  | "over-release"
  | "data-loss-unsurfaced"
  | "frozen-not-told"
  | "dishonest-lease"
  | "latch-double-count"
  | "latch-early-open"
  | "final-state"
  | "fault-unsurfaced"
  | "fault-unobserved"
  | "untyped-error"
  | "granted-without-quorum";

export interface Violation {
  readonly rule: Rule;
  readonly message: string;
}

export const violation = (rule: Rule, message: string): Violation => ({ rule, message });
