import {
  createClient,
  justInTimeStrategy,
  resolveBackend,
  TransportError,
  type Backend,
  type EdgelockClient,
  type LockEvent,
  type RedisInput,
} from "@edgelock/core";
import { Redis } from "@upstash/redis";
import type { Random } from "../../random.ts";
import { runSkewed, type Skew } from "../../world/clock-skew.ts";
import type { PlannedWait } from "../history.ts";
import { currentIntent, realNow } from "./intent-context.ts";
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
  /** The default wait strategy's first backoff bound (absent: its default). */
  readonly waitBaseMs?: number;
  readonly operationRecordTtlMs?: number;
  /** The restart quarantine (absent: off). */
  readonly quarantineMs?: number;
  /** The clients' bound on their wall-clock error (`clockErrorMs`): at least `maxSkewMs`. */
  readonly clockErrorMs: number;
  /**
   * Wall-clock drift of each invocation, drawn from ±this many ms per second (absent: none); its
   * offset stays within ±`maxSkewMs` however long it lives.
   */
  readonly maxDriftMsPerSecond?: number;
  /** Wall-clock skew of each invocation, drawn from ±this many ms. */
  readonly maxSkewMs: number;
  /** Each sleep a waiting call plans (the core's `waited` event), with the intent it belongs to. */
  readonly onWait?: (wait: PlannedWait) => void;
  /** A mutation's weakened scripts, inside the scheduler (campaign/src/adversary/mutations/). */
  readonly weaken?: (backend: Backend) => Backend;
  /**
   * Each client calls `initialize()` first, as the docs advise, and what it is told of the
   * eviction policy (its result, an `eviction-policy` event) goes to this recorder.
   */
  readonly initialize?: (told: { client: number; policy: string }) => void;
}

/** One invocation (as a Worker makes per request): a fresh client with its own skewed clock. */
export interface Invocation {
  readonly client: EdgelockClient;
  /** Its number in the run (as on its runs). */
  readonly clientNo: number;
  /** Resolves once the client may act (after `initialize()` when the settings ask for it). */
  readonly ready: Promise<void>;
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
  const drift = settings.maxDriftMsPerSecond ?? 0;
  if (drift > 0)
    skew.drift = {
      msPerSecond: random.int(-drift * 1000, drift * 1000) / 1000,
      since: realNow(),
      boundMs: settings.maxSkewMs,
    };
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
  const clientNo = scheduler.nextClient;
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
      ...(settings.waitBaseMs === undefined
        ? {}
        : { wait: justInTimeStrategy({ baseMs: settings.waitBaseMs }) }),
      clockErrorMs: settings.clockErrorMs,
      onEvent: (event) => {
        // Emitted inside the waiting call, so its async context names the intent.
        const intent = currentIntent();
        if (event.type === "waited" && intent !== null)
          settings.onWait?.({ intent, at: realNow(), sleepMs: event.sleepMs });
      },
      ...(settings.operationRecordTtlMs === undefined
        ? {}
        : { operationRecordTtlMs: settings.operationRecordTtlMs }),
      ...(settings.quarantineMs === undefined ? {} : { quarantineMs: settings.quarantineMs }),
      ...(settings.initialize === undefined
        ? {}
        : {
            onEvent: (e: LockEvent) => {
              if (e.type === "eviction-policy")
                settings.initialize!({ client: clientNo, policy: e.policy });
            },
          }),
    }),
  );
  const record = settings.initialize;
  const ready =
    record === undefined
      ? Promise.resolve()
      : initialized(client, skew).then((policy) => record({ client: clientNo, policy }));
  // An invocation may end (the run is over) while initialize() still retries; its section then
  // never awaits `ready`, whose rejection must not crash the process (it did, once in 40 runs).
  ready.catch(() => undefined);
  return {
    client,
    clientNo,
    ready,
    skew,
    run: (fn) => runSkewed(skew, fn),
    end: () => {
      ended = true;
    },
  };
}

const same = (backend: Backend): Backend => backend;

/** `initialize()`'s eviction policy, again after a timeout (a loaded machine): what it reported. */
async function initialized(client: EdgelockClient, skew: Skew): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    try {
      return (await runSkewed(skew, () => client.initialize())).eviction.policy;
    } catch (error) {
      if (attempt === 5) throw error;
    }
  }
}
