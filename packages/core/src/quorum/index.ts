/**
 * The quorum lock (Redlock): one lock over several independent databases, held by a majority.
 *
 * Scripts: acquire.lua (phase 1), commit.lua (phase 2), extend.lua, release.lua, compiled into
 * scripts.generated.ts by `pnpm gen:scripts`.
 * Acquire path: quorum-lock.ts `QuorumLock.acquire` → acquire.ts `acquireQuorum` → attempt.ts
 * `attemptQuorum` → calls.ts `phase1` / `commit` (acquire.lua, commit.lua).
 * Suite: packages/core/test/conformance/quorum.conformance.ts.
 *
 * Files by role: quorum-lock.ts the public class; held-quorum-lock.ts the public held view;
 * hold-state.ts one acquisition's internal state (per-database leases, keeper); acquire.ts and
 * attempt.ts the acquire path; calls.ts the script calls on one database; database-lease.ts one
 * database's lease; quorum-ref.ts the handle's identity and timing; quorum-validity.ts the
 * majority's deadline; types.ts public types; resume.ts the serialised lease's check.
 */
export { quorumLock, QuorumLock, MAX_QUORUM_DATABASES } from "./quorum-lock.ts";
export {
  DEFAULT_QUORUM_OPTIONS,
  type QuorumLockOptions,
  type HeldQuorumLock,
  type SerializedQuorumLease,
} from "./types.ts";
