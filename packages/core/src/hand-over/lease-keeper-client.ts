import { BackendError } from "../errors.ts";
import { validateMs, validateOptionalMs } from "../validate.ts";
import { checkKeepable, type KeepableHold } from "./keepable-hold.ts";
import type { KeeperOp, KeeperStatus, KeepOptions } from "./protocol.ts";
import { leaseObjectName } from "./lease-object-name.ts";
import type { KeeperTransport } from "./transport.ts";

/**
 * Talks to the Durable Object lease keeper about one serialised hold at a time: a Lock's,
 * FairLock's, read-write side's, MultiLock's or permit's (`held.toJSON()`). Any other kind (a
 * quorum-lock or semaphore hold) throws `InvalidArgumentError` naming `lease.kind`, before any request.
 */
export interface LeaseKeeperClient {
  /** Hands the lease over: the keeper renews it until released, `maxHoldMs`, or a missed heartbeat. Repeating it is harmless. */
  keep(lease: KeepableHold, options: KeepOptions): Promise<KeeperStatus>;
  /** "Still here": required every `heartbeatMs` when that was set. Answers the lease's state, `lost` included. */
  heartbeat(lease: KeepableHold): Promise<KeeperStatus>;
  /** Releases the lease in Redis and stops the keeper. */
  release(lease: KeepableHold): Promise<KeeperStatus>;
  status(lease: KeepableHold): Promise<KeeperStatus>;
}

/** Options of `leaseKeeperClient`. */
export interface LeaseKeeperClientOptions {
  /** Timeout of each keeper request. @default 10_000 */
  readonly requestTimeoutMs?: number;
}

export const DEFAULT_KEEPER_CLIENT = Object.freeze({ requestTimeoutMs: 10_000 });

export function leaseKeeperClient(
  transport: KeeperTransport,
  options: LeaseKeeperClientOptions = {},
): LeaseKeeperClient {
  const timeoutMs = validateMs(
    "options.requestTimeoutMs",
    options.requestTimeoutMs ?? DEFAULT_KEEPER_CLIENT.requestTimeoutMs,
    { min: 1 },
  );
  const call = async (
    op: KeeperOp,
    lease: KeepableHold,
    extra: Partial<KeepOptions> = {},
  ): Promise<KeeperStatus> => {
    checkKeepable("lease", lease);
    const name = await leaseObjectName(lease);
    const response = await transport.send(
      name,
      op,
      JSON.stringify({ ...extra, lease }),
      AbortSignal.timeout(timeoutMs),
    );
    const body = (await response.json().catch(() => undefined)) as
      (KeeperStatus & { error?: string }) | undefined;
    if (!response.ok || body === undefined) {
      const hint =
        response.status === 401
          ? " (the secret differs from the keeper's EDGELOCK_KEEPER_SECRET)"
          : "";
      throw new BackendError(
        `lease keeper ${op}: HTTP ${response.status}${hint}: ${body?.error ?? ""}`,
        { status: response.status },
      );
    }
    return body;
  };
  return {
    async keep(lease, o) {
      const maxHoldMs = validateMs("options.maxHoldMs", o?.maxHoldMs, { min: 1 });
      const heartbeatMs = validateOptionalMs("options.heartbeatMs", o.heartbeatMs, { min: 1 });
      const leaseMs = validateOptionalMs("options.leaseMs", o.leaseMs, { min: 3 });
      return call("keep", lease, {
        maxHoldMs,
        ...(heartbeatMs && { heartbeatMs }),
        ...(leaseMs && { leaseMs }),
      });
    },
    heartbeat: (lease) => call("heartbeat", lease),
    release: (lease) => call("release", lease),
    status: (lease) => call("status", lease),
  };
}
