/**
 * The counting semaphore (Redisson's `RSemaphore`): permits taken all or none, FIFO waiters.
 *
 * Scripts: acquire.lua, release.lua, add-permits.lua, try-set-permits.lua, abandon.lua,
 * inspect.lua (shared piece: _grant-heads.lua), compiled into scripts.generated.ts by
 * `pnpm gen:scripts`.
 * Acquire path: semaphore.ts `Semaphore.acquire` → acquire.ts `acquirePermits` →
 * calls.ts `runAcquire` (acquire.lua), waiting through ../waiter-queue/acquire-as-waiter.ts.
 * Suite: packages/core/test/conformance/semaphore.conformance.ts.
 *
 * Files by role: semaphore.ts the public class; held-semaphore.ts the public held view;
 * acquire.ts the acquire path; calls.ts the script calls (and `SemaphoreRef`); codec.ts reply
 * decoders; types.ts public types; limits.ts `MAX_PERMITS`; release-op.ts a release's operation
 * id. No hold state: a semaphore hold has no lease.
 */
export { Semaphore, MAX_PERMITS } from "./semaphore.ts";
export type {
  SemaphoreAcquireOptions,
  SemaphoreHold,
  SemaphoreStatus,
  SerializedSemaphoreHold,
} from "./types.ts";
