import { BackendError } from "../errors.ts";
import { ReplyError, TransportError, type Backend } from "./backend.ts";

/**
 * What the server says of key eviction: `policy` is its `maxmemory-policy`, or "unknown" where
 * the backend refuses `CONFIG` (a managed service may: check its console). `maxmemoryBytes` is
 * its `maxmemory` (0: no limit set, so nothing is evicted until one is), absent when unknown.
 */
export interface EvictionPolicy {
  readonly policy: string;
  readonly maxmemoryBytes?: number;
}

/**
 * Reads the eviction settings with one `CONFIG GET maxmemory*` (one pattern, so Redis 6 answers
 * too). Under any policy but `noeviction`, Redis at its memory limit may evict a live lock's key,
 * and the next client is granted while the holder believes it holds: nothing in a script can
 * prevent that, so it is reported, not handled (docs/failure-modes.md). On a cluster, one node
 * answers.
 */
export async function readEvictionPolicy(
  backend: Backend,
  requestTimeoutMs: number,
): Promise<EvictionPolicy> {
  let reply: unknown;
  try {
    reply = await backend.command(
      ["CONFIG", "GET", "maxmemory*"],
      AbortSignal.timeout(requestTimeoutMs),
    );
  } catch (error) {
    if (error instanceof ReplyError) return { policy: "unknown" }; // refused: not readable here
    const status = error instanceof TransportError ? error.status : undefined;
    // A 4xx is a refusal too (a REST front that does not pass CONFIG on).
    if (status !== undefined && status >= 400 && status < 500) return { policy: "unknown" };
    throw new BackendError(
      `read eviction policy: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
  const settings = pairs(reply);
  const policy = settings.get("maxmemory-policy");
  if (policy === undefined) return { policy: "unknown" };
  const bytes = Number(settings.get("maxmemory"));
  return Number.isFinite(bytes) ? { policy, maxmemoryBytes: bytes } : { policy };
}

/** `CONFIG GET` answers a flat [name, value, …] list (RESP2, REST) or a map (RESP3). */
function pairs(reply: unknown): Map<string, string> {
  const out = new Map<string, string>();
  if (Array.isArray(reply)) {
    for (let i = 0; i + 1 < reply.length; i += 2) out.set(String(reply[i]), String(reply[i + 1]));
  } else if (reply !== null && typeof reply === "object") {
    for (const [k, v] of Object.entries(reply)) out.set(k, String(v));
  }
  return out;
}
