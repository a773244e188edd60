import {
  createClient,
  resolveBackend,
  TransportError,
  type Backend,
  type EdgelockClient,
  type RedisInput,
} from "@edgelock/core";
import { Redis } from "@upstash/redis";
import type { Random } from "../../random.ts";
import { runSkewed, type Skew } from "../../world/clock-skew.ts";
import type { Scheduler } from "./scheduler.ts";

/** Client options every invocation uses (the config under test), plus where Redis is. */
export interface InvocationSettings {
  readonly backend: "rest" | "tcp";
  readonly url: string;
  readonly token: string;
  /** For "tcp": one shared node-redis connection (a Worker would have none; Node processes share one). */
  readonly tcp?: unknown;
  readonly prefix: string;
  readonly leaseMs: number;
  readonly requestTimeoutMs: number;
  readonly retryWindowMs: number;
  readonly claimWindowMs: number;
  readonly operationRecordTtlMs?: number;
  /** The clients' bound on their wall-clock error (`clockErrorMs`): at least `maxSkewMs`. */
  readonly clockErrorMs: number;
  /** Wall-clock skew of each invocation, drawn from ±this many ms. */
  readonly maxSkewMs: number;
  /** A mutation's weakened scripts, inside the scheduler (campaign/src/adversary/mutations/). */
  readonly weaken?: (backend: Backend) => Backend;
}

/** One invocation (as a Worker makes per request): a fresh client with its own skewed clock. */
export interface Invocation {
  readonly client: EdgelockClient;
  readonly skew: Skew;
  /** Runs `fn` on this invocation's clock. */
  run<T>(fn: () => T): T;
  /**
   * The invocation ends (a Worker returned, a job's run crashed): nothing it would still send is
   * sent — its keepers' next renewals fail as never sent. Copies already sent still run.
   */
  end(): void;
}

export function newInvocation(
  settings: InvocationSettings,
  scheduler: Scheduler,
  random: Random,
): Invocation {
  const skew: Skew = { ms: random.int(-settings.maxSkewMs, settings.maxSkewMs) };
  const redis: RedisInput =
    settings.backend === "tcp"
      ? (settings.tcp as RedisInput)
      : new Redis({
          url: settings.url,
          token: settings.token,
          retry: false,
          enableAutoPipelining: false,
        });
  let ended = false;
  const scheduled = scheduler.wrap((settings.weaken ?? same)(resolveBackend(redis)));
  const backend: Backend = {
    kind: scheduled.kind,
    command: (args, signal) =>
      ended
        ? Promise.reject(new TransportError("the invocation has ended", { ambiguous: false }))
        : scheduled.command(args, signal),
  };
  const client = runSkewed(skew, () =>
    createClient({
      redis: backend,
      prefix: settings.prefix,
      leaseMs: settings.leaseMs,
      requestTimeoutMs: settings.requestTimeoutMs,
      retryWindowMs: settings.retryWindowMs,
      claimWindowMs: settings.claimWindowMs,
      clockErrorMs: settings.clockErrorMs,
      ...(settings.operationRecordTtlMs === undefined
        ? {}
        : { operationRecordTtlMs: settings.operationRecordTtlMs }),
    }),
  );
  return {
    client,
    skew,
    run: (fn) => runSkewed(skew, fn),
    end: () => {
      ended = true;
    },
  };
}

const same = (backend: Backend): Backend => backend;
