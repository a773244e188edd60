import type { ClientContext } from "../config.ts";
import { decodeTuple } from "../engine/decode.ts";
import { evalScript } from "../engine/eval-script.ts";
import type { Script } from "../engine/script.ts";
import { quorumKeys, type QuorumKeys } from "../keys.ts";
import { quarantineArgs, quarantineKey } from "../quarantine/quarantine.ts";
import { acquireScript, commitScript, extendScript, releaseScript } from "./scripts.generated.ts";

/** One of the quorum's independent databases, reached through its own client. */
export interface QuorumDatabase {
  readonly index: number;
  readonly ctx: ClientContext;
  readonly name: string;
  readonly keys: QuorumKeys;
}

export function quorumDatabase(index: number, ctx: ClientContext, name: string): QuorumDatabase {
  return { index, ctx, name, keys: quorumKeys(ctx.prefix, name) };
}

export type Phase1Reply =
  | { readonly status: "granted"; readonly candidate: number }
  | { readonly status: "busy" | "quarantined"; readonly pttl: number }
  | { readonly status: "released" };

/**
 * Every call gets the quorum's short timeout and no retry window: a database that does not answer
 * in time is a "no" vote, and the round moves on rather than wait for it (Redlock's rule). A
 * late copy of a call is harmless: acquire is fenced by the released mark, the rest are idempotent.
 */
async function call(
  db: QuorumDatabase,
  script: Script,
  operation: string,
  keys: string[],
  args: (string | number)[],
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<unknown> {
  const policy = { requestTimeoutMs: timeoutMs, retryWindowMs: 0 };
  const op = `${operation} quorum db ${db.index}`;
  return (
    await evalScript(
      db.ctx.backend,
      script,
      { operation: op, keys, args, retrySafe: true, signal },
      policy,
      db.ctx.emit,
    )
  ).reply;
}

export async function phase1(
  db: QuorumDatabase,
  token: string,
  leaseMs: number,
  timeoutMs: number,
): Promise<Phase1Reply> {
  const keys = [
    db.keys.lock,
    db.keys.fence,
    db.keys.opPrefix + token,
    quarantineKey(db.ctx, db.name),
  ];
  const reply = await call(
    db,
    acquireScript,
    "acquire",
    keys,
    [token, leaseMs, db.ctx.operationRecordTtlMs, ...quarantineArgs(db.ctx)],
    timeoutMs,
  );
  const [status, candidate, pttl] = decodeTuple("quorum acquire", reply, 3) as [
    number,
    number,
    number,
  ];
  if (status === 1) return { status: "granted", candidate };
  if (status === -1) return { status: "released" };
  return { status: status === -3 ? "quarantined" : "busy", pttl };
}

export async function commit(
  db: QuorumDatabase,
  token: string,
  fence: number,
  timeoutMs: number,
): Promise<boolean> {
  const reply = await call(
    db,
    commitScript,
    "commit",
    [db.keys.lock, db.keys.fence],
    [token, String(fence), db.ctx.fenceTtlMs],
    timeoutMs,
  );
  return decodeTuple("quorum commit", reply, 1)[0] === 1;
}

export async function extend(
  db: QuorumDatabase,
  token: string,
  leaseMs: number,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<boolean> {
  const args = [token, leaseMs];
  const reply = await call(db, extendScript, "extend", [db.keys.lock], args, timeoutMs, signal);
  return decodeTuple("quorum extend", reply, 1)[0] === 1;
}

export async function release(
  db: QuorumDatabase,
  token: string,
  timeoutMs: number,
): Promise<boolean> {
  const reply = await call(
    db,
    releaseScript,
    "release",
    [db.keys.lock, db.keys.opPrefix + token],
    [token, db.ctx.operationRecordTtlMs],
    timeoutMs,
  );
  return decodeTuple("quorum release", reply, 1)[0] === 1;
}
