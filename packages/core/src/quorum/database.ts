import type { ClientContext } from "../config.ts";
import { TransportError } from "../backend/backend.ts";
import { now } from "../engine/clock.ts";
import { decodeTuple } from "../engine/decode.ts";
import { newOperation } from "../engine/operation.ts";
import { run } from "../engine/run.ts";
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

/**
 * One renewal on one database, through the engine (docs/protocol.md): its deadline is the round's
 * timeout, so no copy applies after the caller stopped waiting for it, and its reply feeds this
 * database's own server-time estimate (each database's client keeps one). Ordered by the lease
 * version this database last answered; a stale answer is adopted and the renewal goes once more.
 * The round does not wait past the timeout: a renewal still settling its doubt finishes in the
 * background, and counts as no vote.
 */
export async function extend(
  db: QuorumDatabase,
  token: string,
  hold: { version: number },
  leaseMs: number,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<boolean> {
  const startedAt = now();
  const renew = async (): Promise<boolean> => {
    for (let tries = 0; ; tries++) {
      const budgetMs = Math.floor(startedAt + timeoutMs - now());
      if (budgetMs <= 0) throw new TransportError("no time left to renew", { ambiguous: false });
      const { reply } = await run(db.ctx, extendScript, {
        what: `extend quorum db ${db.index}`,
        keys: { lock: db.keys.lock },
        args: { token, version: hold.version, leaseMs },
        op: newOperation(),
        budgetMs,
        signal,
      });
      hold.version = Math.max(hold.version, reply.version);
      if (reply.status !== 2 || tries > 0) return reply.status === 1;
    }
  };
  return within(db.ctx, renew(), timeoutMs);
}

/** `work`'s result if it comes within `ms`; else a failure now, `work` tracked in the background. */
function within<T>(ctx: QuorumDatabase["ctx"], work: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
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
