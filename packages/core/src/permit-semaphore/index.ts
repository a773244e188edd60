/**
 * The permit-expirable semaphore (Redisson's `RPermitExpirableSemaphore`): each permit has an id
 * and a lease of its own.
 *
 * Scripts: acquire.lua, release.lua, extend.lua, change-permits.lua, abandon.lua, inspect.lua
 * (shared piece: _grant-heads.lua), compiled into scripts.generated.ts by `pnpm gen:scripts`.
 * Acquire path: permit-semaphore.ts `PermitExpirableSemaphore.acquire` → acquire.ts
 * `acquirePermit` → calls.ts `runAcquire` (acquire.lua), waiting through
 * ../waiter-queue/acquire-as-waiter.ts.
 * Suite: packages/core/test/conformance/permit-semaphore.conformance.ts.
 *
 * Files by role: permit-semaphore.ts the public class; held-permit.ts the public held view, which
 * also keeps the permit's lease (no separate hold state: one view per permit); acquire.ts the
 * acquire path; calls.ts the script calls (and `PermitSemaphoreRef`); codec.ts reply decoders;
 * types.ts public types.
 */
export { PermitExpirableSemaphore } from "./permit-semaphore.ts";
export type {
  Permit,
  PermitAcquireOptions,
  PermitSemaphoreStatus,
  SerializedPermit,
} from "./types.ts";
