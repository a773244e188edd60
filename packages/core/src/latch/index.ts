/**
 * The count-down latch (Redisson's `RCountDownLatch`).
 *
 * Scripts: try-set-count.lua, count-down.lua, get-count.lua, compiled into scripts.generated.ts
 * by `pnpm gen:scripts`.
 * Await path (a latch is awaited, not acquired): latch.ts `CountDownLatch.await` → calls.ts
 * `runGetCount` (get-count.lua), polled through the shared wait loop.
 * Suite: packages/core/test/conformance/latch.conformance.ts.
 *
 * Files by role: latch.ts the public class; calls.ts the script calls (and `LatchRef`); types.ts
 * public types and defaults. No held view: nothing is held.
 */
export { CountDownLatch, MAX_LATCH_COUNT } from "./latch.ts";
export { DEFAULT_LATCH_OPTIONS, type LatchAwaitOptions, type TrySetCountOptions } from "./types.ts";
