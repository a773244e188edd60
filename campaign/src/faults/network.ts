import type { FaultRule } from "@edgelock/testkit";
import type { Random } from "../random.ts";
import { pause } from "../workload/pause.ts";
import { FAIL_AFTER_STATUS, FAIL_BEFORE_STATUS } from "../world/recording-backend.ts";
import { usedScripts } from "../world/script-names.ts";
import type { Fault, FaultContext } from "./fault.ts";

type ActionKind = "fail-before" | "fail-after" | "drop-before" | "drop-after" | "hang";

/**
 * In the first round a rule hits whatever request comes next; later, half the rules are aimed
 * at one script some client has run (a release, a renewal, an abandon…).
 */
function aim(ctx: FaultContext): { match?: string; target: string } {
  const targets = usedScripts();
  if (ctx.firstRound || targets.length === 0 || ctx.rng.chance(0.5))
    return { target: "any request" };
  const [name, sha] = ctx.rng.pick(targets);
  return { match: sha, target: name };
}

function actionRule(
  kind: ActionKind,
  times: number,
  match: string | undefined,
  rng: Random,
): FaultRule {
  const m = match === undefined ? {} : { match };
  switch (kind) {
    case "fail-before":
      return { kind, times, status: FAIL_BEFORE_STATUS, ...m };
    case "fail-after":
      return { kind, times, status: FAIL_AFTER_STATUS, ...m };
    case "hang":
      return { kind, times, execute: rng.chance(0.5), ...m };
    default:
      return { kind, times, ...m };
  }
}

/**
 * 5xx before or after executing, a dropped connection before or after executing, a hung request:
 * armed for a few uses, now and then together with latency, and cleared at the end of the episode.
 */
export function actionFault(kind: ActionKind, weight: number): Fault {
  return {
    kind,
    weight,
    async inject(ctx: FaultContext) {
      const { rng, stack, recorder } = ctx;
      const times = rng.int(1, 8);
      const { match, target } = aim(ctx);
      const withLatency = rng.chance(0.25);
      const record = recorder.fault(
        kind,
        `${times}× on ${target}${withLatency ? " + latency" : ""}`,
      );
      const rules: FaultRule[] = [actionRule(kind, times, match, rng)];
      if (withLatency)
        rules.push({ kind: "latency", ms: rng.int(20, 80), jitterMs: rng.int(0, 80) });
      await stack.faults.add(rules);
      const left = await armedUses(ctx, kind);
      await stack.faults.clear();
      record.injected = times - left;
      record.endSeq = recorder.next();
    },
  };
}

/** Waits until the rule is used up or the episode ends; returns the uses left. */
async function armedUses(ctx: FaultContext, kind: string): Promise<number> {
  const until = performance.now() + ctx.episodeMs;
  for (;;) {
    const rule = (await ctx.stack.faults.list()).find((r) => r.kind === kind);
    const left = rule && "times" in rule ? (rule.times ?? 1) : 0;
    if (left === 0 || performance.now() >= until) return left;
    await pause(50);
  }
}

/** Latency spikes with jitter on every request for one episode. */
export const latencyFault: Fault = {
  kind: "latency",
  weight: 3,
  async inject(ctx) {
    const { rng, stack, recorder } = ctx;
    // Now and then beyond requestTimeoutMs: the server runs the request after the client gave up.
    const ms = rng.chance(0.3) ? rng.int(300, 600) : rng.int(20, 150);
    const jitterMs = rng.int(0, 150);
    const record = recorder.fault("latency", `${ms} ms + up to ${jitterMs} ms jitter`);
    const before = (await stack.faults.stats()).httpRequests;
    await stack.faults.add({ kind: "latency", ms, jitterMs });
    await pause(rng.int(ctx.episodeMs / 2, ctx.episodeMs));
    await stack.faults.clear();
    record.injected = (await stack.faults.stats()).httpRequests - before;
    record.endSeq = recorder.next();
  },
};

/** `SCRIPT FLUSH`: the next EVALSHA of every script answers NOSCRIPT. */
export const flushScriptsFault: Fault = {
  kind: "flush-scripts",
  weight: 1,
  async inject({ stack, recorder }) {
    const record = recorder.fault("flush-scripts", "SCRIPT FLUSH");
    await stack.faults.flushScripts();
    record.endSeq = recorder.next();
  },
};
