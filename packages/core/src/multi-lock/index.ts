/**
 * The multi-lock (Redisson's `RedissonMultiLock`): several names held all or none.
 *
 * Scripts: acquire.lua, release.lua, extend.lua, abandon.lua — for names that share a hash tag,
 * one request per group (calls.ts `slotGroup`); a group of one name runs the Lock's own scripts
 * (single-group.ts → ../lock/calls.ts). Compiled into scripts.generated.ts by `pnpm gen:scripts`.
 * Acquire path: multi-lock.ts `MultiLock.acquire` → acquire.ts `acquireMulti` → attempt.ts
 * `attemptAll` → calls.ts `slotGroup(…).acquire` (acquire.lua).
 * Suite: packages/core/test/conformance/multi-lock.conformance.ts.
 *
 * Files by role: multi-lock.ts the public class; held-multi-lock.ts the public held view;
 * hold-state.ts one acquisition's internal state (lease, keeper, renewals); acquire.ts and
 * attempt.ts the acquire path; calls.ts the script calls of a slot group; single-group.ts a group
 * of one name; group.ts what a group answers; multi-ref.ts the handle's identity and its groups;
 * codec.ts reply decoders; types.ts public types; names.ts the names' checks (the options' are
 * the shared ../lease/hold-options.ts); resume.ts the serialised lease's check.
 */
export { MultiLock } from "./multi-lock.ts";
export { MAX_MULTI_LOCK_NAMES } from "./names.ts";
export type { HeldMultiLock, SerializedMultiLease } from "./types.ts";
