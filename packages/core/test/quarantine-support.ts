import { justInTimeStrategy } from "../src/index.ts";

export const QUARANTINE_MS = 2_500;
export const LEASE_MS = 1_000;

/** Client options with the restart quarantine on: every time a holder may trust a grant fits in it (the client checks). */
export const QUARANTINED = {
  quarantineMs: QUARANTINE_MS,
  leaseMs: LEASE_MS,
  claimWindowMs: 1_000,
  requestTimeoutMs: 2_000,
  wait: justInTimeStrategy({ maxMs: 500 }),
} as const;
