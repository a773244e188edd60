import type { ClientContext } from "../client-context.ts";
import { TransportError } from "../backend/backend.ts";
import { newOperation, type Operation } from "../engine/operation.ts";
import type { ResourceRef } from "../engine/resource-ref.ts";
import { run } from "../engine/run.ts";
import { opRecordKey, quorumKeys, type QuorumKeys } from "../keys.ts";
import { decodeRenewal, type DecodedRenewal } from "../lease/ordered-renewal.ts";
import { acquireScript, commitScript, extendScript, releaseScript } from "./scripts.generated.ts";

/** One of the quorum's independent databases, reached through its own client. */
export interface QuorumDatabase extends ResourceRef<QuorumKeys> {
  readonly index: number;
  // `ctx` is this database's client: its own server-time estimate (`clock`), so no deadline mixes clocks.
}

export function quorumDatabase(index: number, ctx: ClientContext, name: string): QuorumDatabase {
  return { index, ctx, name, keys: quorumKeys(ctx.prefix, name) };
}

export type Phase1Reply =
  | { readonly status: "granted"; readonly candidate: number }
  | { readonly status: "busy" | "quarantined"; readonly pttl: number };

/**
 * An acquisition's operation on one database: the id is the token (so a release can tombstone
 * its record), the deadline this database's own (each database has its own clock).
 */
export function acquisitionOp(token: string): Operation {
  return { id: token, deadline: undefined };
}

/**
 * Every call runs through the engine (docs/protocol.md) with the round's timeout as its budget:
 * its deadline is that much past this database's own server-time estimate, so no copy applies
 * after the caller stopped waiting for it. The round does not wait past the timeout (a database
 * that does not answer in time is a "no" vote, Redlock's rule): a call still settling its doubt
 * finishes in the background.
 */
export async function phase1(
  db: QuorumDatabase,
  op: Operation,
  leaseMs: number,
  timeoutMs: number,
): Promise<Phase1Reply> {
  const { reply } = await within(
    db.ctx,
    run(db.ctx, acquireScript, {
      what: `acquire quorum db ${db.index}`,
      keys: { lock: db.keys.lock, fence: db.keys.fence },
      args: { token: op.id, leaseMs },
      op,
      budgetMs: timeoutMs,
    }),
    timeoutMs,
  );
  if (reply.status === 1) return { status: "granted", candidate: reply.candidate };
  return { status: reply.status === -3 ? "quarantined" : "busy", pttl: reply.pttl };
}

export async function commit(
  db: QuorumDatabase,
  token: string,
  fence: number,
  timeoutMs: number,
): Promise<boolean> {
  const { reply } = await within(
    db.ctx,
    run(db.ctx, commitScript, {
      what: `commit quorum db ${db.index}`,
      keys: { lock: db.keys.lock, fence: db.keys.fence },
      args: { token, fence: String(fence), fenceTtlMs: db.ctx.fenceTtlMs },
      op: newOperation(),
      budgetMs: timeoutMs,
    }),
    timeoutMs,
  );
  return reply.status === 1;
}

/**
 * One renewal request on one database, ordered by the lease version this hold last saw there
 * (`quorum/extend.lua`). The queue, the doubt and the stale retry are the shared renewal's
 * (lease/ordered-renewal.ts, one per database: see `DatabaseLease`).
 */
export async function extend(
  db: QuorumDatabase,
  token: string,
  renewal: {
    readonly version: number;
    readonly leaseMs: number;
    readonly op: Operation;
    /** No copy may apply later than this after it is sent (within the hold's local deadline). */
    readonly budgetMs: number;
    readonly signal?: AbortSignal | undefined;
  },
): Promise<DecodedRenewal> {
  const { version, leaseMs, op, budgetMs, signal } = renewal;
  if (budgetMs <= 0) throw new TransportError("no time left to renew", { ambiguous: false });
  const { reply, sentAt } = await run(db.ctx, extendScript, {
    what: `extend quorum db ${db.index}`,
    keys: { lock: db.keys.lock },
    args: { token, version, leaseMs },
    op,
    budgetMs,
    signal,
  });
  return decodeRenewal(reply, sentAt);
}

/**
 * Releases `token` here and tombstones its acquisition (until the later of the acquire's
 * deadline on this database, when known, and the release's own), so that no copy of the acquire
 * still in flight can take the lock afterwards.
 */
export async function release(
  db: QuorumDatabase,
  token: string,
  acquireDeadline: number | undefined,
  timeoutMs: number,
): Promise<boolean> {
  const { reply } = await within(
    db.ctx,
    run(db.ctx, releaseScript, {
      what: `release quorum db ${db.index}`,
      keys: { lock: db.keys.lock, acquisition: opRecordKey(db.keys.lock, token) },
      args: { token, acquireDeadline: acquireDeadline ?? 0 },
      op: newOperation(),
      budgetMs: timeoutMs,
    }),
    timeoutMs,
  );
  return reply.status === 1;
}

/**
 * `work`'s result if it comes within `ms`; else a failure now, `work` tracked in the background
 * (and `onTimeout` told, so that work not started yet can be dropped).
 */
export function within<T>(
  ctx: QuorumDatabase["ctx"],
  work: Promise<T>,
  ms: number,
  onTimeout?: () => void,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      onTimeout?.();
      ctx.background(work.catch(() => undefined));
      reject(new TransportError(`no answer within ${ms} ms`, { ambiguous: true }));
    }, ms);
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error as Error);
      },
    );
  });
}
