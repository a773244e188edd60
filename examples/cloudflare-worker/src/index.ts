// A Worker whose routes each hold a lock for their whole response, with hono.
import { lockMiddleware } from "@edgelock/hono";
import { Redis } from "@upstash/redis/cloudflare";
import { Hono } from "hono";
import { stream } from "hono/streaming";
import { edgelock } from "./edgelock.ts";
import type { AppEnv } from "./env.ts";
import { pay } from "./pay.ts";

// The keeper Durable Object lives in this Worker (binding LEASE_KEEPER in wrangler.jsonc).
export { LeaseKeeper } from "@edgelock/cloudflare";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const app = new Hono<AppEnv>();

// #region middleware
// Each request to a counter route runs alone for its counter: 423 + Retry-After when busy 10 s.
const oneAtATime = lockMiddleware<AppEnv>({
  client: (c) => edgelock(c.env, c.executionCtx),
  name: (c) => `counter:${c.req.param("name")}`,
  waitMs: 10_000,
});
// #endregion middleware

// A plain handler (no middleware), as in the Workers guide.
app.post("/orders/:id/pay", (c) => pay(c.req.param("id"), c.env, c.executionCtx));

// Read-modify-write: without the lock, concurrent requests lose each other's updates.
app.post("/counters/:name/increment", oneAtATime, async (c) => {
  const redis = Redis.fromEnv(c.env);
  const key = `example:counter:${c.req.param("name")}`;
  const value = Number((await redis.get<number>(key)) ?? 0);
  await sleep(25); // the window in which an unlocked request would interleave
  await redis.set(key, value + 1);
  return c.json({ value: value + 1, fence: c.get("lock").fence });
});

// The same, unlocked: for comparison only.
app.post("/counters/:name/increment-unsafe", async (c) => {
  const redis = Redis.fromEnv(c.env);
  const key = `example:counter:${c.req.param("name")}`;
  const value = Number((await redis.get<number>(key)) ?? 0);
  await sleep(25);
  await redis.set(key, value + 1);
  return c.json({ value: value + 1 });
});

app.get("/counters/:name", async (c) =>
  c.json({
    value: Number(
      (await Redis.fromEnv(c.env).get<number>(`example:counter:${c.req.param("name")}`)) ?? 0,
    ),
  }),
);

// A streamed response keeps the lock until its last chunk; c.get("lockSignal") stops it if the lease is lost.
app.get("/counters/:name/report", oneAtATime, (c) =>
  stream(c, async (s) => {
    for (let i = 1; i <= 3 && !c.get("lockSignal").aborted; i++) {
      await s.write(`step ${i} under fence ${c.get("lock").fence}\n`);
      await sleep(100);
    }
  }),
);

export default app;
