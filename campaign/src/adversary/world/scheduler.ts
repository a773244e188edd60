import { TransportError, type Backend } from "@edgelock/core";
import type { FaultControl, NodeRedisClient } from "@edgelock/testkit";
import type { Random } from "../../random.ts";
import type { Execution } from "../history.ts";
import { pickFate, type FateMix } from "./fates.ts";
import { currentIntent, realNow } from "./intent-context.ts";
import { probe, resourceOfRecord, resourcesOf, type ResourceRef } from "./probe.ts";
import { parseScriptCall, type ScriptCall } from "./script-call.ts";
import { isHang, serverFaultRule, type ServerFaultKind } from "./server-faults.ts";

type Ran =
  | { readonly reply: unknown }
  /** `recorded`: a copy's answer read from its operation record when the server withheld it. */
  | { readonly error: unknown; readonly recorded?: unknown };

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
  readonly #inFlight = new Set<Promise<unknown>>();
  #closed = false;
  readonly #serverFaults: FaultControl | undefined;
  readonly #slow = new Map<number, boolean>();
  readonly #sentOps = new Set<string>();
  readonly #semaphoreBases: ReadonlySet<string>;
  readonly #recordBases: ReadonlyMap<string, ResourceRef>;

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
  }) {
    this.#semaphoreBases = options.semaphoreBases ?? new Set();
    this.#recordBases = options.recordBases ?? new Map();
    this.#serverFaults = options.serverFaults;
    this.#random = options.random;
    this.#mix = options.mix;
    this.#probe = options.probe;
    this.#onRun = options.onRun;
  }

  /** A `Backend` for one client, whose script requests go through the adversary. */
  wrap(inner: Backend): Backend {
    return {
      kind: inner.kind,
      command: (args, signal) => {
        const call = parseScriptCall(args);
        if (this.#closed)
          return Promise.reject(new TransportError("world closed", { ambiguous: false }));
        if (call === null) return inner.command(args, signal);
        return this.#deliver(inner, args, call, signal);
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
  ): Promise<unknown> {
    const intent = currentIntent();
    const slow =
      this.#isSlow(intent) && !(this.#mix.slowSparesSettle && call.script === "engine/settle");
    const fate = pickFate(this.#random, this.#mix, slow, this.#isFirstCopy(call));
    const run = (copy: Execution["copy"], fault?: ServerFaultKind) =>
      this.#track(this.#run(inner, args, call, intent, copy, signal, fault));
    switch (fate.kind) {
      case "normal":
        return answer(run("normal"), signal);
      case "late":
        return answer(this.#track(sleep(fate.delayMs).then(() => run("late"))), signal);
      case "duplicate": {
        const first = run("normal");
        void this.#track(first.then(() => sleep(fate.delayMs)).then(() => run("duplicate")));
        return answer(first, signal);
      }
      case "lost-response": {
        const ran = run("lost-response");
        return fate.hang ? hang(signal) : ran.then(() => Promise.reject(lost()));
      }
      case "server-fault":
        return answer(run("normal", fate.fault), signal);
    }
  }

  /** The operation's first request (only when the mix asks for first copies to run late). */
  #isFirstCopy(call: ScriptCall): boolean {
    if (!this.#mix.firstCopyLate || call.opId === null || this.#sentOps.has(call.opId))
      return false;
    this.#sentOps.add(call.opId);
    return true;
  }

  /** Decided once per intent, at its first request. */
  #isSlow(intent: number | null): boolean {
    if (intent === null || !this.#mix.slowIntent) return false;
    let slow = this.#slow.get(intent);
    if (slow === undefined)
      this.#slow.set(intent, (slow = this.#random.chance(this.#mix.slowIntent)));
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
    intent: number | null,
    copy: Execution["copy"],
    signal: AbortSignal,
    wanted?: ServerFaultKind,
  ): Promise<Ran> {
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
      for (const { key, kind } of touched) {
        const { serverMs, state } = await probe(this.#probe, key, kind);
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
          sentAt,
          doneAt,
          serverMs,
          reply: "reply" in ran ? ran.reply : (ran.recorded ?? null),
          error: "error" in ran ? String(ran.error) : null,
          state,
          ...(fault === undefined ? {} : { serverFault: fault }),
          ...(call.subject === null ? {} : { subject: call.subject }),
        });
      }
      return ran;
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
