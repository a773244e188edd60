/**
 * The reentrant Lock (Redisson's `RLock`), and the machinery every lock-shaped primitive runs
 * (the fair lock and both read-write sides bring their own `LockCalls`, see lock-shape.ts).
 *
 * Scripts: acquire.lua, release.lua, extend.lua, abandon.lua, inspect.lua, force-unlock.lua
 * (shared pieces: _grant-head.lua, _abandon-take.lua), compiled into scripts.generated.ts by
 * `pnpm gen:scripts`.
 * Acquire path: lock.ts `Lock.acquire` → acquire.ts `acquireLock` → calls.ts `runAcquire`
 * (acquire.lua).
 * Suite: packages/core/test/conformance/lock.conformance.ts (a row of
 * packages/core/test/conformance/suites.ts).
 *
 * Files by role: lock.ts the public class; held-lock.ts the public held view; hold-state.ts one
 * acquisition's internal state (lease, keeper, renewals); acquire.ts the acquire path; calls.ts
 * the script calls through the engine; codec.ts reply decoders; types.ts public types;
 * lock-ref.ts the handle's identity every call takes; lock-shape.ts what a lock-shaped primitive
 * supplies; push-grant.ts a waiter's grant by push.
 */
export { Lock } from "./lock.ts";
export type {
  AcquireOptions,
  HeldLock,
  SerializedLease,
  SerializedLockLease,
  SerializedReadWriteLease,
  LeaseKind,
} from "./types.ts";
