// The root entry, as redis-ops.ts: only the Durable Object side needs every kind's field checks.
import { parseSerializedHold } from "@edgelock/core";
import {
  checkKeepable,
  KEEPER_OPS,
  KEEPER_PATH_PREFIX,
  type KeeperOp,
  type KeeperRequestBody,
} from "@edgelock/core/hand-over";
import { validateMs, validateOptionalMs } from "@edgelock/core/options";
import { DEFAULT_LEASE_KEEPER } from "./defaults.ts";

export type Parsed =
  | { readonly op: KeeperOp; readonly body: KeeperRequestBody }
  | { readonly error: string; readonly status: number };

/** `POST /v1/leases/{object}/{op}` with a JSON body; everything checked before it is trusted. */
export async function parseRequest(request: Request): Promise<Parsed> {
  if (request.method !== "POST") return { status: 405, error: "use POST" };
  const path = new URL(request.url).pathname;
  const op = path.startsWith(KEEPER_PATH_PREFIX) ? path.split("/").pop() : undefined;
  if (!KEEPER_OPS.includes(op as KeeperOp))
    return { status: 404, error: `unknown operation; use ${KEEPER_OPS.join(", ")}` };
  let body: KeeperRequestBody;
  try {
    body = (await request.json()) as KeeperRequestBody;
    // A kind the keeper cannot keep (quorum-lock, semaphore, …) is refused here, by name; a kept
    // kind is checked field by field, and stored as the core reads it (legacy kind names mapped).
    checkKeepable("lease", body?.lease);
    body = {
      ...body,
      lease: parseSerializedHold(body.lease, "lease") as KeeperRequestBody["lease"],
    };
    if (op === "keep") {
      validateMs("maxHoldMs", body.maxHoldMs, { min: 1 });
      validateOptionalMs("heartbeatMs", body.heartbeatMs, { min: 1 });
      validateOptionalMs("leaseMs", body.leaseMs, { min: 3, max: DEFAULT_LEASE_KEEPER.maxLeaseMs });
    }
  } catch (error) {
    return { status: 400, error: error instanceof Error ? error.message : "invalid JSON body" };
  }
  return { op: op as KeeperOp, body };
}
