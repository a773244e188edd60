import { readEvictionPolicy, type EvictionPolicy } from "./backend/eviction-policy.ts";
import type { ClientContext } from "./client-context.ts";
import { initializeSentinels } from "./quarantine/quarantine.ts";
import { testSeams } from "./test-seams.ts";

/** What `client.initialize()` did and found. */
export interface InitializeResult {
  /** Restart-quarantine sentinels written (missing before) and found. */
  readonly written: number;
  readonly existing: number;
  /**
   * The server's eviction settings. Anything but `noeviction` lets Redis evict a live lock's key
   * at its memory limit (docs/failure-modes.md); "unknown" where the backend refuses `CONFIG`.
   */
  readonly eviction: EvictionPolicy;
}

/** Clients that already reported an evicting policy: once per client is enough. */
const reported = new WeakSet<ClientContext>();

/**
 * Writes the missing sentinels (see `initializeSentinels`), then reads the eviction policy and
 * reports one other than `noeviction` through an `eviction-policy` event, once per client.
 */
export async function initializeClient(ctx: ClientContext): Promise<InitializeResult> {
  const sentinels = await initializeSentinels(ctx);
  const read = await readEvictionPolicy(ctx.backend, ctx.policy.requestTimeoutMs);
  const eviction = testSeams.hideEvictionPolicy ? { policy: "noeviction" } : read;
  if (eviction.policy !== "noeviction" && eviction.policy !== "unknown" && !reported.has(ctx)) {
    reported.add(ctx);
    ctx.emit({ type: "eviction-policy", ...eviction });
  }
  return { ...sentinels, eviction };
}
