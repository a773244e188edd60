/**
 * The abstract operation protocol as a set of rules, so the old protocol (c6a5b43) and the new
 * one (docs: /work/notes/protocol-design.md, issue 13) are the same model with different switches.
 */
export interface ProtocolRules {
  readonly name: string;
  /** Every answer is recorded under its operation id, busy included (old: grants only). */
  readonly recordEveryAnswer: boolean;
  /** A copy carries a server-time deadline and is refused after it. */
  readonly deadlines: boolean;
  /** A renewal carries the lease version it saw and applies only to it (old: absolute extend). */
  readonly leaseVersions: boolean;
  /** Give-up sends one settle: the recorded answer, or a tombstone (old: abandon on unknown only). */
  readonly settle: boolean;
  /** While a renewal is unresolved, the local deadline is the earliest it could have set. */
  readonly unresolvedDeadline: boolean;
}

export const OLD_PROTOCOL: ProtocolRules = {
  name: "old (c6a5b43)",
  recordEveryAnswer: false,
  deadlines: false,
  leaseVersions: false,
  settle: false,
  unresolvedDeadline: false,
};

export const NEW_PROTOCOL: ProtocolRules = {
  name: "new (issue 13)",
  recordEveryAnswer: true,
  deadlines: true,
  leaseVersions: true,
  settle: true,
  unresolvedDeadline: true,
};

/** Abstract time: ticks of server time, which only the adversary advances. */
export const TIMING = {
  leaseTicks: 3,
  /** How long after its first send a copy may still apply (new protocol). */
  budgetTicks: 2,
  maxTicks: 3,
  /** Copies the adversary may run twice, in a whole run. */
  duplicates: 1,
  /** Resends of one operation before its caller gives up. */
  retries: 1,
} as const;
