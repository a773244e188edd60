import { TransportError, type Backend } from "@edgelock/core";
import type { FaultControl, NodeRedisClient } from "@edgelock/testkit";
import type { Random } from "../../random.ts";
import type { Execution, IntentKind, ResourceState } from "../history.ts";
import { pickFate, type Fate, type FateMix } from "./fates.ts";
import { currentIntent, realNow } from "./intent-context.ts";
import { probeAll, resourceOfRecord, resourcesOf, type ResourceRef } from "./probe.ts";
import { parseScriptCall, type ScriptCall } from "./script-call.ts";
import { isHang, serverFaultRule, type ServerFaultKind } from "./server-faults.ts";

type Ran =
  | { readonly reply: unknown }
  /** `recorded`: a copy's answer read from its operation record when the server withheld it. */
  | { readonly error: unknown; readonly recorded?: unknown };

/** How long a held first copy waits for its operation's resend at most. */
const RESEND_WAIT_LIMIT_MS = 5_000;

/** How long after the copy it waited for a held copy is released (see `#ran`). */
const AFTER_ANSWER_MS = 3;

/** Server faults after which the script has run. */
const EXECUTES: ReadonlySet<ServerFaultKind> = new Set(["fail-after", "drop-after", "hang-after"]);

/**
 * The adversary between every client and Redis: it decides each script request's fate (late,
 * duplicated, response lost, or normal), and runs the copies one at a time, so that right after
 * each run it can read the resource's state and log it in execution order. Redis runs scripts one
 * at a time anyway: serializing them here loses no interleaving and makes every state visible.
 */
export class Scheduler {
  readonly #random: Random;
  readonly #mix: FateMix;
  readonly #probe: NodeRedisClient;
  readonly #onRun: (execution: Execution) => void;
  #chain: Promise<unknown> = Promise.resolve();
  #seq = 0;
  #clients = 0;
  readonly #inFlight = new Set<Promise<unknown>>();
  #closed = false;
  readonly #serverFaults: FaultControl | undefined;
  readonly #slow = new Map<number, boolean>();
  readonly #sentOps = new Set<string>();
  /** Copies held until another copy of their operation has run, by operation id. */
  readonly #awaitingRun = new Map<string, { settle: boolean; release: () => void }[]>();
  /** Copies held until a run leaves their resource free, by resource key. */
  readonly #awaitingFree = new Map<string, (() => void)[]>();
  readonly #semaphoreBases: ReadonlySet<string>;
  readonly #recordBases: ReadonlyMap<string, ResourceRef>;
  readonly #kindOf: (intent: number) => IntentKind | undefined;

  constructor(options: {
    random: Random;
    mix: FateMix;
    probe: NodeRedisClient;
    onRun: (execution: Execution) => void;
    /** Key bases (`prefix:v1:{name}`) of the run's semaphores, to place settle runs. */
    semaphoreBases?: ReadonlySet<string>;
    /** The rest-server's fault control, for `server-fault` fates (absent: those run normally). */
    serverFaults?: FaultControl;
    /** Other key bases whose records belong to a resource other than the Lock at that base. */
    recordBases?: ReadonlyMap<string, ResourceRef>;
    /** The kind of an intent, for `mix.faultKinds` (absent: faults may meet every call). */
    kindOf?: (intent: number) => IntentKind | undefined;
  }) {
    this.#kindOf = options.kindOf ?? (() => undefined);
    this.#semaphoreBases = options.semaphoreBases ?? new Set();
    this.#recordBases = options.recordBases ?? new Map();
    this.#serverFaults = options.serverFaults;
    this.#random = options.random;
    this.#mix = options.mix;
    this.#probe = options.probe;
    this.#onRun = options.onRun;
  }

  /** The number the next wrapped backend (the next client) gets. */
  get nextClient(): number {
    return this.#clients;
  }

  /** A `Backend` for one client, whose script requests go through the adversary. */
  wrap(inner: Backend): Backend {
    // Each wrapped backend is one client's: its runs are logged with its number.
    const client = this.#clients++;
    return {
      kind: inner.kind,
      command: (args, signal) => {
        const call = parseScriptCall(args);
        if (this.#closed)
          return Promise.reject(new TransportError("world closed", { ambiguous: false }));
        if (call === null) return inner.command(args, signal);
        return this.#deliver(inner, args, call, signal, client);
      },
      // No `subscribe`: waiters poll, so every hand-off goes through scripts the oracle sees.
    };
  }

  /** Refuses every later request (as not sent), so leftover keepers stop after the run. */
  close(): void {
    this.#closed = true;
  }

  /** Resolves once no copy is waiting to run (late and duplicate copies included). */
  async idle(): Promise<void> {
    while (this.#inFlight.size > 0) await Promise.allSettled([...this.#inFlight]);
  }

  #deliver(
    inner: Backend,
    args: readonly (string | number)[],
    call: ScriptCall,
    signal: AbortSignal,
    client: number,
  ): Promise<unknown> {
    const intent = currentIntent();
    const requestedAt = realNow();
    const aimed = this.#aimedAt(intent);
    const slow =
      aimed &&
      this.#isSlow(intent, call.script) &&
      !(this.#mix.slowSparesSettle && call.script === "engine/settle");
    if (slow && this.#mix.slowSettleLost && call.script === "engine/settle") {
      // Lost before it ran: nothing is logged (nothing executed); the held copies go after it.
      this.#ran(call);
      return Promise.reject(new TransportError("settle lost", { ambiguous: true }));
    }
    const fate: Fate = aimed
      ? pickFate(this.#random, this.#mix, slow, this.#isFirstCopy(call))
      : { kind: "normal" };
    const run = (copy: Execution["copy"], fault?: ServerFaultKind) =>
      this.#track(
        this.#run(inner, args, call, { intent, requestedAt }, copy, signal, client, fault),
      );
    switch (fate.kind) {
      case "normal":
        return answer(run("normal"), signal);
      case "late": {
        const opId = call.opId;
        // Not forever: an invocation that ended sends no resend.
        const resent = () =>
          Promise.race([this.#nextRun(opId!, false), sleep(RESEND_WAIT_LIMIT_MS)]);
        const held =
          fate.after === undefined || opId === null
            ? sleep(fate.delayMs)
            : fate.after === "settle"
              ? Promise.race([this.#nextRun(opId, true), sleep(fate.delayMs)])
              : fate.after === "resend"
                ? Promise.all([sleep(fate.delayMs), resent()])
                : resent().then(() =>
                    Promise.race([this.#nextFree(resourcesOf(call.keys)), sleep(fate.delayMs)]),
                  );
        return answer(this.#track(held.then(() => run("late"))), signal);
      }
      case "duplicate": {
        const first = run("normal");
        void this.#track(first.then(() => sleep(fate.delayMs)).then(() => run("duplicate")));
        return answer(first, signal);
      }
      case "lost-response": {
        const ran = run("lost-response");
        // Either way the request ends by its signal at the latest (a real one is aborted at its
        // timeout): a copy queued behind others must not hold its caller past it.
        if (fate.hang) return hang(signal);
        return Promise.race([ran.then(() => Promise.reject(lost())), hang(signal)]);
      }
      case "server-fault":
        return answer(run("normal", fate.fault), signal);
    }
  }

  /**
   * Resolves once another copy of operation `opId` has run (its settle, when `settle`): the
   * event a held copy waits for (`Fate` "late" with `after`).
   */
  #nextRun(opId: string, settle: boolean): Promise<void> {
    return new Promise((release) => {
      const waiting = this.#awaitingRun.get(opId) ?? [];
      waiting.push({ settle, release });
      this.#awaitingRun.set(opId, waiting);
    });
  }

  /** Resolves once a run leaves one of `resources` free (see `FateMix.firstCopyUntilFree`). */
  #nextFree(resources: readonly ResourceRef[]): Promise<void> {
    return new Promise((release) => {
      for (const { key } of resources) {
        const waiting = this.#awaitingFree.get(key) ?? [];
        waiting.push(release);
        this.#awaitingFree.set(key, waiting);
      }
    });
  }

  /** Releases the copies waiting for `key` to be free, when `state` shows it free. */
  #probed(key: string, state: ResourceState): void {
    const waiting = this.#awaitingFree.get(key);
    if (waiting === undefined || !isFree(state)) return;
    this.#awaitingFree.delete(key);
    for (const release of waiting) setTimeout(release, AFTER_ANSWER_MS);
  }

  /** Releases the copies waiting for this run of `call`'s operation. */
  #ran(call: ScriptCall): void {
    if (call.opId === null) return;
    const waiting = this.#awaitingRun.get(call.opId);
    if (waiting === undefined) return;
    const settle = call.script === "engine/settle";
    const left = waiting.filter((w) => w.settle && !settle);
    // After the caller has its answer: a timer fires only once the microtasks that carry the
    // reply up through the core to the caller (and end its intent) have run.
    for (const w of waiting) if (!(w.settle && !settle)) setTimeout(w.release, AFTER_ANSWER_MS);
    if (left.length > 0) this.#awaitingRun.set(call.opId, left);
    else this.#awaitingRun.delete(call.opId);
  }

  /** The operation's first request (only when the mix asks for first copies to run late). */
  #isFirstCopy(call: ScriptCall): boolean {
    if (!this.#mix.firstCopyLate || call.opId === null || this.#sentOps.has(call.opId))
      return false;
    this.#sentOps.add(call.opId);
    return true;
  }

  /** Whether the call may meet faults at all (`mix.faultKinds`). */
  #aimedAt(intent: number | null): boolean {
    const kinds = this.#mix.faultKinds;
    if (kinds === undefined) return true;
    const kind = intent === null ? undefined : this.#kindOf(intent);
    return kind !== undefined && kinds.includes(kind);
  }

  /** Decided once per intent, at its first request (by its script when the mix names some). */
  #isSlow(intent: number | null, script: string): boolean {
    if (intent === null || !this.#mix.slowIntent) return false;
    let slow = this.#slow.get(intent);
    if (slow === undefined) {
      const eligible = this.#mix.slowScripts?.includes(script) ?? true;
      slow = eligible && this.#random.chance(this.#mix.slowIntent);
      this.#slow.set(intent, slow);
    }
    return slow;
  }

  #track<T>(work: Promise<T>): Promise<T> {
    this.#inFlight.add(work);
    void work.finally(() => this.#inFlight.delete(work)).catch(() => undefined);
    return work;
  }

  /** Runs one copy after every copy queued before it, then reads and logs the resource's state. */
  #run(
    inner: Backend,
    args: readonly (string | number)[],
    call: ScriptCall,
    { intent, requestedAt }: { intent: number | null; requestedAt: number },
    copy: Execution["copy"],
    signal: AbortSignal,
    client: number,
    wanted?: ServerFaultKind,
  ): Promise<Ran> {
    const queuedAt = realNow();
    const next = this.#chain.then(async () => {
      let fault = await this.#armServerFault(wanted, call, signal);
      const sentAt = realNow();
      let ran: Ran;
      try {
        // A copy runs even after its caller gave up on it; a hung one only until then.
        const cut = AbortSignal.timeout(10_000);
        const until = fault !== undefined && isHang(fault) ? AbortSignal.any([signal, cut]) : cut;
        ran = { reply: await inner.command(args, until) };
      } catch (error) {
        ran = { error };
      }
      if (fault !== undefined && !(await this.#serverFaultTaken(call))) fault = undefined;
      // A copy that ran but whose reply the server withheld: its answer is the one it recorded.
      if (fault !== undefined && "error" in ran && EXECUTES.has(fault))
        ran = { ...ran, ...(await this.#recordedReply(call)) };
      const doneAt = realNow();
      // Every resource the call touches (a multi-lock's locks), else the one its record is about.
      let touched = resourcesOf(call.keys);
      if (touched.length === 0) {
        const record = resourceOfRecord(
          call.keys[0] ?? "",
          this.#semaphoreBases,
          this.#recordBases,
        );
        touched = record === null ? [] : [record];
      }
      const probed = await probeAll(this.#probe, touched);
      for (const [i, { key }] of touched.entries()) {
        const { serverMs, state } = probed[i]!;
        this.#probed(key, state);
        this.#onRun({
          seq: this.#seq++,
          intent,
          script: call.script,
          command: String(args[0]).toUpperCase() === "EVAL" ? "EVAL" : "EVALSHA",
          resource: key,
          opId: call.opId,
          copy,
          // A copy the server faulted never showed its caller a reply.
          seen: (copy === "normal" || copy === "late") && !signal.aborted && fault === undefined,
          queuedAt,
          requestedAt,
          sentAt,
          doneAt,
          serverMs,
          reply: "reply" in ran ? ran.reply : (ran.recorded ?? null),
          error: "error" in ran ? String(ran.error) : null,
          state,
          ...(fault === undefined ? {} : { serverFault: fault }),
          ...(call.subject === null ? {} : { subject: call.subject }),
          ...(call.deadline === null ? {} : { deadline: call.deadline }),
          client,
        });
      }
      this.#ran(call);
      return ran;
    });
    this.#chain = next.catch(() => undefined);
    return next;
  }

  /**
   * A fault of the world's own (a rollback, memory pressure): `fault` runs between two copies,
   * none in flight, and each resource's state right after it is logged as a run of
   * `world/<name>` with no intent, so the oracle's replay sees the state it left.
   */
  worldEvent(
    name: string,
    resources: readonly ResourceRef[],
    fault: () => Promise<void>,
  ): Promise<{ seq: number; at: number }> {
    const next = this.#chain.then(async () => {
      const sentAt = realNow();
      await fault();
      const doneAt = realNow();
      const first = this.#seq;
      const probed = await probeAll(this.#probe, resources);
      for (const [i, { key }] of resources.entries()) {
        const { serverMs, state } = probed[i]!;
        this.#onRun({
          seq: this.#seq++,
          intent: null,
          script: `world/${name}`,
          command: "EVAL",
          resource: key,
          opId: null,
          copy: "normal",
          seen: false,
          sentAt,
          doneAt,
          serverMs,
          reply: null,
          error: null,
          state,
        });
      }
      return { seq: first, at: doneAt };
    });
    this.#chain = next.catch(() => undefined);
    return next;
  }

  /**
   * Arms the rest-server's rule for this one copy, right before it is sent (copies run one at a
   * time, so no other copy takes it). Not when its caller already gave up: a hang would end at
   * once and the rule could be left for a later copy of the same operation.
   */
  async #armServerFault(
    wanted: ServerFaultKind | undefined,
    call: ScriptCall,
    signal: AbortSignal,
  ): Promise<ServerFaultKind | undefined> {
    if (wanted === undefined || this.#serverFaults === undefined || signal.aborted) return;
    await this.#serverFaults.add(serverFaultRule(wanted, call));
    return wanted;
  }

  /** The answer a protocol copy recorded under its operation id, as its reply would carry it. */
  async #recordedReply(call: ScriptCall): Promise<{ recorded?: unknown }> {
    const key = call.keys.find((k) => k.includes(":op:"));
    if (key === undefined) return {};
    const raw = await this.#probe.get(key);
    if (raw === null || raw === "x") return {};
    return { recorded: raw.split(",").map(Number) };
  }

  /**
   * Whether the copy took its rule. One aborted before it reached the server did not: the rule
   * is removed, or the next copy of the same operation (its settle, say) would take it unseen.
   * Removing means clearing every rule: the scheduler must own its rest-server's rules.
   */
  async #serverFaultTaken(call: ScriptCall): Promise<boolean> {
    const { match } = serverFaultRule("fail-before", call) as { match: string };
    const left = await this.#serverFaults!.list();
    if (!left.some((rule) => "match" in rule && rule.match === match)) return true;
    await this.#serverFaults!.clear();
    return false;
  }
}

/** The client's view of a copy: its reply, unless its own request signal aborted first. */
async function answer(ran: Promise<Ran>, signal: AbortSignal): Promise<unknown> {
  const result = await Promise.race([ran, hang(signal)]);
  if ("error" in result) throw result.error;
  return result.reply;
}

/** Never settles until `signal` aborts, then fails as an ambiguous transport error (a timeout). */
function hang(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    const fail = () =>
      reject(new TransportError("request aborted", { ambiguous: true, cause: signal.reason }));
    if (signal.aborted) fail();
    else signal.addEventListener("abort", fail, { once: true });
  });
}

function lost(): TransportError {
  return new TransportError("response lost", { ambiguous: true });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** A lock without owner, a semaphore with two permits available (what any acquire here takes). */
function isFree(state: ResourceState): boolean {
  if (state.kind === "lock") return state.owner === null;
  if (state.kind === "semaphore") return state.available >= 2;
  return false;
}
