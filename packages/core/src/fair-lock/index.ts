/**
 * The fair lock (Redisson's `RFairLock`): the Lock's machinery (../lock/) running these scripts.
 *
 * Scripts: acquire.lua, release.lua, extend.lua, abandon.lua, inspect.lua, force-unlock.lua
 * (shared pieces: _enqueue.lua, _grant-head.lua, _granted.lua, _hold-stats.lua, _reenter.lua,
 * _release-level.lua, _take-free.lua), compiled into scripts.generated.ts by `pnpm gen:scripts`.
 * Acquire path: fair-lock.ts (a `Lock` with `fairLockCalls`) → ../lock/acquire.ts `acquireLock`
 * → calls.ts `fairLockCalls.acquire` (acquire.lua).
 * Suite: packages/core/test/conformance/fair-lock.conformance.ts.
 *
 * Files by role: fair-lock.ts the public class; calls.ts the script calls (`fairLockCalls`);
 * codec.ts reply decoders. Held view, hold state and types are the Lock's.
 */
export { FairLock } from "./fair-lock.ts";
