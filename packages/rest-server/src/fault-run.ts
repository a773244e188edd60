import type { Context } from "hono";
import { dropConnection } from "./drop.ts";
import { DEFAULT_FAULT_STATUS, type ActionRule } from "./fault-rule.ts";
import type { Faults } from "./faults.ts";
import { loggedPath } from "./log-path.ts";
import type { Suspensions } from "./suspend.ts";

export interface FaultRunContext {
  readonly faults: Faults;
  readonly suspensions: Suspensions;
  readonly log: (line: string) => void;
}

/**
 * Runs one data-plane request under the armed faults: latency is split around execution, and at
 * most one action rule (matched against `text`, the raw body or the path) decides whether the
 * command runs and what the client receives.
 */
export async function runWithFaults(
  ctx: FaultRunContext,
  c: Context,
  text: string,
  execute: () => Promise<Response>,
): Promise<Response> {
  const action = ctx.faults.take(text);
  const latency = ctx.faults.latencyMs();
  const before = Math.floor(latency / 2);
  if (action !== undefined)
    ctx.log(`fault ${action.kind} on ${c.req.method} ${loggedPath(c.req.path)}`);
  await sleep(before);
  if (action?.kind === "drop-before") return dropConnection(c);
  if (action?.kind === "fail-before") return injectedFailure(c, action);
  if (action?.kind === "hang" && action.execute !== true) return hang(ctx, c);
  const response = await execute();
  if (action?.kind === "hang") return hang(ctx, c);
  if (action?.kind === "fail-after") return injectedFailure(c, action);
  if (action?.kind === "drop-after") return dropConnection(c);
  await sleep(latency - before);
  return response;
}

function injectedFailure(c: Context, rule: Extract<ActionRule, { status?: number }>): Response {
  const status = rule.status ?? DEFAULT_FAULT_STATUS;
  // A JSON body with `error`, so @upstash/redis reports an UpstashError rather than a parse error.
  return c.json({ error: `ERR injected fault: ${rule.kind} (${status})` }, status as 502);
}

async function hang(ctx: FaultRunContext, c: Context): Promise<Response> {
  const why = await ctx.suspensions.wait(c.req.raw.signal);
  // The client has gone (nothing will be written) or the server is closing: either way the
  // request must end without an answer.
  if (why === "closed") return dropConnection(c);
  return new Response(null, { status: 499 });
}

const sleep = (ms: number) =>
  ms > 0 ? new Promise<void>((resolve) => setTimeout(resolve, ms)) : Promise.resolve();
