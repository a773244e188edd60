/**
 * The read-write lock (Redisson's `RReadWriteLock`): two sides, each the Lock's machinery
 * (../lock/) running that side's scripts.
 *
 * Scripts: acquire-read.lua, acquire-write.lua, release-read.lua, release-write.lua,
 * extend-read.lua (the writer renews with ../fair-lock/extend.lua), abandon-read.lua,
 * abandon-write.lua, inspect.lua, force-unlock.lua (shared piece: _readers.lua), compiled into
 * scripts.generated.ts by `pnpm gen:scripts`.
 * Acquire path: side.ts (a `Lock` with `readSideCalls` / `writeSideCalls`) →
 * ../lock/acquire.ts `acquireLock` → read-calls.ts / write-calls.ts (acquire-read.lua,
 * acquire-write.lua).
 * Suite: packages/core/test/conformance/read-write-lock.conformance.ts.
 *
 * Files by role: read-write-lock.ts the public class; side.ts the public class of one side;
 * read-calls.ts, write-calls.ts each side's script calls; calls.ts the calls both sides share.
 * Held view, hold state and types are the Lock's.
 */
export { ReadWriteLock } from "./read-write-lock.ts";
export { ReadWriteLockSide, type ReadWriteMode } from "./side.ts";
