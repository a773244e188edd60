import type { Context, Hono } from "hono";
import { isAuthorized, UNAUTHORIZED_MESSAGE } from "./auth.ts";
import { BodyTooLargeError, readBodyText } from "./body.ts";
import { FaultRuleError, type FaultRule } from "./fault-rule.ts";
import type { Faults } from "./faults.ts";
import type { StatsCounter } from "./stats.ts";

export const CONTROL_PREFIX = "/__edgelock";

export interface ControlContext {
  readonly token: string;
  readonly enableFaults: boolean;
  readonly maxBodyBytes: number;
  readonly stats: StatsCounter;
  readonly faults: Faults;
}

/**
 * The test-only control API. Every endpoint needs the token; the fault endpoints answer 404
 * unless faults are enabled. Control requests are never faulted and never counted.
 */
export function mountControl(app: Hono, ctx: ControlContext): void {
  app.use(`${CONTROL_PREFIX}/*`, async (c, next) => {
    if (!isAuthorized(c.req.raw, ctx.token)) return c.json({ error: UNAUTHORIZED_MESSAGE }, 401);
    const isFaultEndpoint = /^\/__edgelock\/(faults|flush-scripts)\/?$/.test(c.req.path);
    if (isFaultEndpoint && !ctx.enableFaults) {
      return c.json({ error: "fault injection is disabled" }, 404);
    }
    await next();
    return undefined;
  });
  app.get(`${CONTROL_PREFIX}/stats`, (c) => c.json(ctx.stats.snapshot()));
  app.post(`${CONTROL_PREFIX}/stats/reset`, (c) => {
    ctx.stats.reset();
    return c.json({ ok: true });
  });
  app.get(`${CONTROL_PREFIX}/faults`, (c) => c.json(ctx.faults.list()));
  app.delete(`${CONTROL_PREFIX}/faults`, (c) => {
    ctx.faults.clear();
    return c.json({ ok: true });
  });
  app.post(`${CONTROL_PREFIX}/faults`, async (c) => {
    const rules = await readJson(c, ctx.maxBodyBytes);
    if (rules instanceof Response) return rules;
    try {
      await ctx.faults.add(rules as FaultRule | FaultRule[]);
    } catch (error) {
      if (error instanceof FaultRuleError) return c.json({ error: error.message }, 400);
      throw error;
    }
    return c.json({ ok: true, rules: ctx.faults.list() });
  });
  app.post(`${CONTROL_PREFIX}/flush-scripts`, async (c) => {
    await ctx.faults.add({ kind: "flush-scripts" });
    return c.json({ ok: true });
  });
  app.all(`${CONTROL_PREFIX}/*`, (c) =>
    c.json({ error: `no control endpoint ${c.req.method} ${c.req.path}` }, 404),
  );
}

async function readJson(c: Context, maxBodyBytes: number): Promise<unknown> {
  try {
    return JSON.parse(await readBodyText(c.req.raw, maxBodyBytes)) as unknown;
  } catch (error) {
    if (error instanceof BodyTooLargeError) {
      return c.json({ error: error.message }, 413, { connection: "close" });
    }
    return c.json({ error: "body is not valid JSON" }, 400);
  }
}
