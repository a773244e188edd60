import { createClient, type EdgelockClient } from "@edgelock/core";
import { makeNodeRedis, startStack, type Stack } from "@edgelock/testkit";
import { Redis } from "@upstash/redis";
import { writeFileSync } from "node:fs";
import { RECORD_MARGIN_SLACK_MS } from "../../../packages/core/src/client-options.ts";
import { keyBase, lockKeys, semaphoreKeys } from "../../../packages/core/src/keys.ts";
import { Random } from "../random.ts";
import { installClockSkew } from "../world/clock-skew.ts";
import type { AdversaryConfig } from "./configs.ts";
import type { AdversaryHistory } from "./history.ts";
import { checkAdversaryHistory, type AdversaryResult } from "./oracle/check.ts";
import type { ActorContext } from "./workload/actor.ts";
import { Ledger } from "./workload/ledger.ts";
import { isWellFormed } from "./wire-form.ts";
import { CAST_NAMES, castRecordBases, setUpCast } from "./workload/cast.ts";
import { handOverRaceActor } from "./workload/hand-over-race.ts";
import { lockActor } from "./workload/lock-actor.ts";
import { semaphoreActor } from "./workload/semaphore-actor.ts";
import { realNow } from "./world/intent-context.ts";
import { driveDataFaults } from "./world/data-faults.ts";
import { newInvocation, type Invocation, type InvocationSettings } from "./world/invocation.ts";
import { preloadScripts } from "./world/preload.ts";
import { serverClock } from "./world/server-clock/server-clock.ts";
import { probe, type ResourceRef } from "./world/probe.ts";
import { Scheduler } from "./world/scheduler.ts";

export interface AdversaryRunOptions {
  readonly config: AdversaryConfig;
  readonly seed: number;
  readonly seconds: number;
  readonly backend?: "rest" | "tcp";
  /** Where a failing run's history goes; absent: not written. */
  readonly dumpDir?: string;
  /**
   * A Redis and rest-server shared with other runs (in parallel: each its own key prefix);
   * absent: the run starts its own and stops it.
   */
  readonly stack?: Stack;
  /** Key prefix; default `adv<seed>`. Runs sharing a stack need distinct ones. */
  readonly prefix?: string;
  /**
   * Ends the actors' loops early once `stop.at` (real ms) has passed, however long `seconds` is:
   * the run then goes to quiescence and is checked as a whole, only shorter (a gate whose runs
   * together reached their coverage stops the ones still going). Read at every loop turn.
   */
  readonly stop?: { readonly at: number };
  /** A mutation in the world (`applyMutation`): weakened scripts, loaded before the run. */
  readonly mutation?: {
    readonly weaken?: InvocationSettings["weaken"];
    readonly scripts: readonly string[];
  };
}

export interface AdversaryRun {
  readonly history: AdversaryHistory;
  readonly result: AdversaryResult;
  readonly file: string | null;
}

// One hash tag: a multi-lock over both names is one script (all or nothing in one run).
const LOCKS = ["{ab}a", "{ab}b"];
const SEMAPHORES = ["s"];
const PERMITS = 3;

/** One bounded adversarial run: its own Redis and rest-server, actors, then the oracle's verdict. */
export async function runAdversary(options: AdversaryRunOptions): Promise<AdversaryRun> {
  const { config, seed } = options;
  const backend = options.backend ?? "rest";
  const uninstallSkew = installClockSkew();
  // Faults on the data need a Redis of the run's own (and one without an append-only file).
  const ownStack = options.stack === undefined || config.dataFaults !== undefined;
  // Its own rest-server process too: a run that owns its stack (server faults, data faults) runs
  // beside others that load this process.
  // A world that steps the server's clock runs its Redis with the clock shim.
  const clock = (config.dataFaults?.clockSteps ?? []).length > 0 ? await serverClock() : undefined;
  clock?.stepServerClock(config.dataFaults?.clockStartMs ?? 0);
  const stack = ownStack
    ? await startStack({ restProcess: true, ...(clock ? { env: clock.env } : {}) })
    : options.stack!;
  const connections: { destroy(): void }[] = [];
  const keepAlive = setInterval(() => undefined, 1_000);
  try {
    const probeRedis = await makeNodeRedis(stack.redis.url);
    connections.push(probeRedis);
    const loadScripts = async () => {
      await preloadScripts(probeRedis);
      for (const source of options.mutation?.scripts ?? []) await probeRedis.scriptLoad(source);
    };
    await loadScripts();
    if (config.warmUpMs !== undefined) await warmUp(stack, config.warmUpMs);
    if (config.evictionPolicy !== undefined)
      await probeRedis.sendCommand(["CONFIG", "SET", "maxmemory-policy", config.evictionPolicy]);
    const prefix = options.prefix ?? `adv${seed}`;
    const lockKey = (name: string) => lockKeys(prefix, name).lock;
    const semaphoreKey = (name: string) => semaphoreKeys(prefix, name).state;
    const history: AdversaryHistory = {
      seed,
      config: `${config.name}/${backend}`,
      faults:
        config.mix.late + config.mix.duplicate + config.mix.lostResponse > 0 ||
        (backend === "rest" && ownStack && (config.mix.serverFault ?? 0) > 0) ||
        (config.dataFaults?.rollbacks ?? 0) > 0 ||
        (config.dataFaults?.evictions ?? 0) > 0 ||
        (config.dataFaults?.clockSteps ?? []).length > 0,
      executions: [],
      intents: [],
      beliefs: [],
      samples: [],
      final: {},
      totals: {},
      recordMarginMs: recordTtlMs(config) - config.retryWindowMs,
      ...(clock ? { serverClockStartMs: clock.offsetMs } : {}),
      ...(config.quarantineMs === undefined ? {} : { quarantineMs: config.quarantineMs }),
      waits: [],
    };
    const ledger = new Ledger(history);
    const recordBases = castRecordBases(prefix);
    const scheduler = new Scheduler({
      random: new Random(seed ^ 0x5bd1e995),
      mix: config.mix,
      probe: probeRedis,
      // The rest-server's own per-request faults: only a REST client has it in its path, and
      // only a run that owns its rest-server arms them (the scheduler clears rules not taken).
      ...(backend === "rest" && ownStack ? { serverFaults: stack.faults } : {}),
      semaphoreBases: new Set(SEMAPHORES.map((name) => keyBase(prefix, name))),
      recordBases,
      kindOf: (intent) => history.intents[intent]?.kind,
      onRun: (e) => {
        history.executions.push(e);
        ledger.sample(e.seq);
      },
    });
    const quarantine =
      config.quarantineMs === undefined ? {} : { quarantineMs: config.quarantineMs };
    const admin = createClient({
      redis: new Redis({ ...stack.rest, retry: false }),
      prefix,
      // A quarantine must cover the client's own default lease and waits: the config's.
      ...(config.quarantineMs === undefined
        ? {}
        : {
            ...quarantine,
            leaseMs: config.leaseMs,
            requestTimeoutMs: config.requestTimeoutMs,
            claimWindowMs: config.claimWindowMs,
          }),
    });
    // The sentinels written up front, as the docs advise: the first grant waits no quarantine.
    if (config.quarantineMs !== undefined) await initialized(admin);
    for (const name of SEMAPHORES) {
      await admin.semaphore(name).trySetPermits(PERMITS);
      history.totals[semaphoreKey(name)] = PERMITS;
    }
    const cast = await setUpCast(admin, prefix, config, recordBases, redeliveryAfterMs(config));
    const tcp = backend === "tcp" ? await makeNodeRedis(stack.redis.url) : undefined;
    if (tcp) connections.push(tcp);
    const settings: InvocationSettings = {
      backend,
      ...stack.rest,
      ...(tcp ? { tcp } : {}),
      ...(options.mutation?.weaken ? { weaken: options.mutation.weaken } : {}),
      prefix,
      leaseMs: config.leaseMs,
      requestTimeoutMs: config.requestTimeoutMs,
      retryWindowMs: config.retryWindowMs,
      claimWindowMs: config.claimWindowMs,
      ...(config.waitBaseMs === undefined ? {} : { waitBaseMs: config.waitBaseMs }),
      ...(config.operationRecordTtlMs === undefined
        ? {}
        : { operationRecordTtlMs: config.operationRecordTtlMs }),
      maxSkewMs: config.maxSkewMs,
      ...(config.maxDriftMsPerSecond === undefined
        ? {}
        : { maxDriftMsPerSecond: config.maxDriftMsPerSecond }),
      clockErrorMs: config.clockErrorMs,
      onWait: (wait) => history.waits!.push(wait),
      ...quarantine,
      ...(config.initializeClients
        ? {
            initialize: (told: { client: number; policy: string }) =>
              (history.evictionTold ??= []).push({ ...told, at: realNow() }),
          }
        : {}),
    };
    const locks = config.lockNames ?? LOCKS;
    const clients: EdgelockClient[] = [];
    const until = realNow() + options.seconds * 1_000;
    const actor = (name: string, i: number, longLived = false): ActorContext => {
      const random = new Random(seed * 31 + i);
      let kept: Invocation | undefined;
      const fresh = () => {
        const inv = newInvocation(settings, scheduler, random);
        clients.push(inv.client);
        return inv;
      };
      return {
        actor: name,
        random,
        ledger,
        invocation: longLived ? () => (kept ??= fresh()) : fresh,
        locks,
        semaphores: SEMAPHORES,
        ...CAST_NAMES,
        prefix,
        lockKey,
        semaphoreKey,
        leaseMs: config.leaseMs,
        minExtendMs: config.minExtendMs,
        tilt: config.tilt,
        get until() {
          return Math.min(until, options.stop?.at ?? Infinity);
        },
      };
    };
    const longLived = config.longLivedActors ?? 0;
    const resources: ResourceRef[] = [
      ...locks.filter(isWellFormed).map((name) => ({ key: lockKey(name), kind: "lock" as const })),
      ...SEMAPHORES.map((name) => ({ key: semaphoreKey(name), kind: "semaphore" as const })),
    ];
    await Promise.all([
      driveDataFaults(config.dataFaults ?? {}, {
        redis: stack.redis,
        admin: probeRedis,
        reloadScripts: loadScripts,
        scheduler,
        history,
        resources,
        from: realNow(),
        until,
        ...(clock ? { serverClock: clock } : {}),
      }),
      ...Array.from({ length: config.lockActors }, (_, i) =>
        lockActor(actor(`L${i}`, i, i < longLived)),
      ),
      ...Array.from({ length: config.semaphoreActors }, (_, i) =>
        semaphoreActor(actor(`S${i}`, 100 + i)),
      ),
      ...Array.from({ length: config.race?.actors ?? 0 }, (_, i) =>
        handOverRaceActor(actor(`H${i}`, 300 + i), config.race!),
      ),
      cast.run(actor),
    ]);
    // Quiescence: background work settled and no held-back copy left to run.
    for (let round = 0; round < 2; round++) {
      await Promise.all(clients.map((c) => c.settled()));
      await scheduler.idle();
    }
    // An ill-formed name was refused, so its key was never meant to be used (on the wire it is
    // another name's key: the probe would read that one's state under this name).
    for (const name of locks.filter(isWellFormed))
      history.final[lockKey(name)] = (await probe(probeRedis, lockKey(name), "lock")).state;
    for (const name of SEMAPHORES)
      history.final[semaphoreKey(name)] = (
        await probe(probeRedis, semaphoreKey(name), "semaphore")
      ).state;
    await cast.probeFinal(probeRedis, history);
    scheduler.close();
    const result = checkAdversaryHistory(history);
    let file: string | null = null;
    if (result.violations.length > 0 && options.dumpDir !== undefined) {
      file = `${options.dumpDir}/edgelock-adversary-${config.name}-${backend}-${seed}.json`;
      writeFileSync(file, JSON.stringify(history));
    }
    return { history, result, file };
  } finally {
    try {
      // Only this run's own connections: `closeAll()` would close those of runs beside it.
      for (const c of connections) c.destroy();
      if (ownStack) await stack.close();
      clock?.close();
    } finally {
      clearInterval(keepAlive);
      uninstallSkew();
    }
  }
}

/**
 * When a redelivered job comes back: after the first delivery's last record expired (records
 * live until their deadline, at most a retry window after the call, plus the record margin),
 * and after its longest lease ran out.
 */
function redeliveryAfterMs(config: AdversaryConfig): number {
  return Math.max(recordTtlMs(config) + config.retryWindowMs, config.leaseMs * 2) + 100;
}

/** The clients' `operationRecordTtlMs`: the config's, or the core's default (config.ts). */
function recordTtlMs(config: AdversaryConfig): number {
  return (
    config.operationRecordTtlMs ??
    config.retryWindowMs +
      2 * config.requestTimeoutMs +
      2 * config.clockErrorMs +
      RECORD_MARGIN_SLACK_MS
  );
}

/** Script runs through the rest-server, eight at a time, for `ms` (see `warmUpMs`). */
async function warmUp(stack: Stack, ms: number): Promise<void> {
  const redis = new Redis({ ...stack.rest, retry: false });
  const until = realNow() + ms;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (realNow() < until) await redis.eval("return redis.call('TIME')", [], []);
    }),
  );
}

/** `initialize()`, again after a timeout (setup, on a loaded machine: not under test). */
async function initialized(admin: EdgelockClient): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await admin.initialize();
      return;
    } catch (error) {
      if (attempt === 5) throw error;
    }
  }
}
