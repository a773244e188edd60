import type { Context } from "hono";
import { isAuthorized, UNAUTHORIZED_MESSAGE } from "./auth.ts";
import { BodyTooLargeError, readBodyText } from "./body.ts";
import { encodingOf, toJsonReply, type StringEncoding } from "./encode.ts";
import {
  executePipeline,
  executeSingle,
  executeTransaction,
  RedisUnavailableError,
  type ExecuteContext,
  type Outcome,
} from "./execute.ts";
import { runWithFaults, type FaultRunContext } from "./fault-run.ts";
import {
  MalformedRequestError,
  parseBatchBody,
  parsePathCommand,
  parseSingleBody,
  pathSegments,
} from "./parse.ts";
import type { StatsCounter } from "./stats.ts";
import type { SubscribeKind, Subscriptions } from "./subscribe.ts";

export interface DataPlaneContext extends FaultRunContext {
  readonly token: string;
  readonly maxBodyBytes: number;
  readonly stats: StatsCounter;
  readonly execute: ExecuteContext;
  readonly subscriptions: Subscriptions;
}

// Upstash: "Only HEAD, GET, POST and PUT methods are allowed" (405 otherwise).
const ALLOWED_METHODS = new Set(["HEAD", "GET", "POST", "PUT"]);

/** Every request that is not a control endpoint: Upstash's REST API. */
export async function handleDataPlane(ctx: DataPlaneContext, c: Context): Promise<Response> {
  // Touch the signal first: @hono/node-server only aborts it on disconnect if it exists by then.
  const signal = c.req.raw.signal;
  if (!ALLOWED_METHODS.has(c.req.method)) {
    return c.json({ error: `ERR method ${c.req.method} not allowed` }, 405);
  }
  ctx.stats.countRequest();
  if (!isAuthorized(c.req.raw, ctx.token)) return c.json({ error: UNAUTHORIZED_MESSAGE }, 401);
  const format = c.req.header("upstash-response-format");
  if (format !== undefined && format.toLowerCase() !== "json") {
    return c.json(
      { error: `ERR response format '${format}' is not supported by this server (only json)` },
      400,
    );
  }
  const url = new URL(c.req.url);
  const streamKind = subscribeKindOf(url.pathname);
  try {
    if (streamKind !== undefined) return await subscribe(ctx, c, streamKind, url, signal);
    const body = await readBodyText(c.req.raw, ctx.maxBodyBytes);
    return await dispatch(ctx, c, url, body);
  } catch (error) {
    // The unread rest of the body is still on the socket: close it rather than let the client
    // reuse a connection the server is about to drop.
    if (error instanceof BodyTooLargeError) {
      return c.json({ error: error.message }, 413, { connection: "close" });
    }
    if (error instanceof MalformedRequestError) return c.json({ error: error.message }, 400);
    if (error instanceof RedisUnavailableError) return c.json({ error: error.message }, 503);
    throw error;
  }
}

async function dispatch(
  ctx: DataPlaneContext,
  c: Context,
  url: URL,
  body: string,
): Promise<Response> {
  const encoding = encodingOf(c.req.raw);
  const path = url.pathname;
  if (path === "/pipeline") {
    const commands = parseBatchBody(body);
    return runWithFaults(ctx, c, body, async () => {
      const outcomes = await executePipeline(ctx.execute, commands);
      return c.json(outcomes.map((outcome) => entry(outcome, encoding)));
    });
  }
  if (path === "/multi-exec") {
    const commands = parseBatchBody(body);
    return runWithFaults(ctx, c, body, async () => {
      const outcomes = await executeTransaction(ctx.execute, commands);
      if ("discarded" in outcomes) return c.json({ error: outcomes.discarded }, 400);
      return c.json(outcomes.map((outcome) => entry(outcome, encoding)));
    });
  }
  const command = path === "/" ? parseSingleBody(body) : parsePathCommand(url, body);
  // A path-style GET has no body: its path is what fault rules match.
  return runWithFaults(ctx, c, body.length > 0 ? body : path, async () => {
    const outcome = await executeSingle(ctx.execute, command);
    if ("error" in outcome) return c.json({ error: outcome.error }, 400);
    return c.json(entry(outcome, encoding));
  });
}

/** One `{result}` or `{error}`; errors are never encoded. */
function entry(
  outcome: Outcome,
  encoding: StringEncoding,
): { result: unknown } | { error: string } {
  return "error" in outcome
    ? { error: outcome.error }
    : { result: toJsonReply(outcome.result, encoding) };
}

function subscribeKindOf(path: string): SubscribeKind | undefined {
  if (path.startsWith("/subscribe/")) return "subscribe";
  if (path.startsWith("/psubscribe/")) return "psubscribe";
  return undefined;
}

// The body (@upstash/redis sends `[]`) is ignored: the channels are the path segments.
// Subscriptions are not subject to faults, so a background subscriber never uses up a rule.
async function subscribe(
  ctx: DataPlaneContext,
  c: Context,
  kind: SubscribeKind,
  url: URL,
  signal: AbortSignal,
): Promise<Response> {
  const targets = pathSegments(url.pathname)?.slice(1) ?? [];
  if (targets.length === 0) {
    return c.json({ error: `ERR wrong number of arguments for '${kind}' command` }, 400);
  }
  ctx.execute.onCommand(kind);
  try {
    return await ctx.subscriptions.open(kind, targets, signal, {
      "content-type": "text/event-stream",
      "cache-control": "no-cache",
      connection: "keep-alive",
    });
  } catch (error) {
    throw new RedisUnavailableError(`ERR redis unavailable: ${(error as Error).message}`, {
      cause: error,
    });
  }
}
