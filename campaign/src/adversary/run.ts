import { createClient, type EdgelockClient } from "@edgelock/core";
import { makeNodeRedis, startStack, type Stack } from "@edgelock/testkit";
import { Redis } from "@upstash/redis";
import { writeFileSync } from "node:fs";
import { keyBase, lockKeys, semaphoreKeys } from "../../../packages/core/src/keys.ts";
import { Random } from "../random.ts";
import { installClockSkew } from "../world/clock-skew.ts";
import type { AdversaryConfig } from "./configs.ts";
import type { AdversaryHistory } from "./history.ts";
import { checkAdversaryHistory, type AdversaryResult } from "./oracle/check.ts";
import type { ActorContext } from "./workload/actor.ts";
import { Ledger } from "./workload/ledger.ts";
import { CAST_NAMES, castRecordBases, setUpCast } from "./workload/cast.ts";
import { lockActor } from "./workload/lock-actor.ts";
import { semaphoreActor } from "./workload/semaphore-actor.ts";
import { realNow } from "./world/intent-context.ts";
import { newInvocation, type InvocationSettings } from "./world/invocation.ts";
import { preloadScripts } from "./world/preload.ts";
import { probe } from "./world/probe.ts";
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
  const stack = options.stack ?? (await startStack());
  const connections: { destroy(): void }[] = [];
  const keepAlive = setInterval(() => undefined, 1_000);
  try {
    const probeRedis = await makeNodeRedis(stack.redis.url);
    connections.push(probeRedis);
    await preloadScripts(probeRedis);
    for (const source of options.mutation?.scripts ?? []) await probeRedis.scriptLoad(source);
    const prefix = options.prefix ?? `adv${seed}`;
    const lockKey = (name: string) => lockKeys(prefix, name).lock;
    const semaphoreKey = (name: string) => semaphoreKeys(prefix, name).state;
    const history: AdversaryHistory = {
      seed,
      config: `${config.name}/${backend}`,
      faults:
        config.mix.late + config.mix.duplicate + config.mix.lostResponse > 0 ||
        (backend === "rest" && options.stack === undefined && (config.mix.serverFault ?? 0) > 0),
      executions: [],
      intents: [],
      beliefs: [],
      samples: [],
      final: {},
      totals: {},
    };
    const ledger = new Ledger(history);
    const recordBases = castRecordBases(prefix);
    const scheduler = new Scheduler({
      random: new Random(seed ^ 0x5bd1e995),
      mix: config.mix,
      probe: probeRedis,
      // The rest-server's own per-request faults: only a REST client has it in its path, and
      // only a run that owns its rest-server arms them (the scheduler clears rules not taken).
      ...(backend === "rest" && options.stack === undefined ? { serverFaults: stack.faults } : {}),
      semaphoreBases: new Set(SEMAPHORES.map((name) => keyBase(prefix, name))),
      recordBases,
      onRun: (e) => {
        history.executions.push(e);
        ledger.sample(e.seq);
      },
    });
    const admin = createClient({ redis: new Redis({ ...stack.rest, retry: false }), prefix });
    for (const name of SEMAPHORES) {
      await admin.semaphore(name).trySetPermits(PERMITS);
      history.totals[semaphoreKey(name)] = PERMITS;
    }
    const cast = await setUpCast(admin, prefix, config, recordBases);
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
      ...(config.operationRecordTtlMs === undefined
        ? {}
        : { operationRecordTtlMs: config.operationRecordTtlMs }),
      maxSkewMs: config.maxSkewMs,
      clockErrorMs: config.clockErrorMs,
    };
    const clients: EdgelockClient[] = [];
    const until = realNow() + options.seconds * 1_000;
    const actor = (name: string, i: number): ActorContext => {
      const random = new Random(seed * 31 + i);
      return {
        actor: name,
        random,
        ledger,
        invocation: () => {
          const inv = newInvocation(settings, scheduler, random);
          clients.push(inv.client);
          return inv;
        },
        locks: LOCKS,
        semaphores: SEMAPHORES,
        ...CAST_NAMES,
        prefix,
        lockKey,
        semaphoreKey,
        leaseMs: config.leaseMs,
        minExtendMs: config.minExtendMs,
        tilt: config.tilt,
        until,
      };
    };
    await Promise.all([
      ...Array.from({ length: config.lockActors }, (_, i) => lockActor(actor(`L${i}`, i))),
      ...Array.from({ length: config.semaphoreActors }, (_, i) =>
        semaphoreActor(actor(`S${i}`, 100 + i)),
      ),
      cast.run(actor),
    ]);
    // Quiescence: background work settled and no held-back copy left to run.
    for (let round = 0; round < 2; round++) {
      await Promise.all(clients.map((c) => c.settled()));
      await scheduler.idle();
    }
    for (const name of LOCKS)
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
      if (options.stack === undefined) await stack.close();
    } finally {
      clearInterval(keepAlive);
      uninstallSkew();
    }
  }
}
