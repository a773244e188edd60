import { Redis } from "@upstash/redis/cloudflare";
import type { ExecutionContext } from "hono";
import { edgelock } from "./edgelock.ts";
import type { Bindings } from "./env.ts";

/** POST /orders/:id/pay — charges an order at most once, however many requests race. */
export async function pay(id: string, env: Bindings, ctx: ExecutionContext): Promise<Response> {
  const client = edgelock(env, ctx);
  try {
    await using held = await client.lock(`orders:${id}`).tryAcquire({ waitMs: 5_000 });
    if (!held)
      return Response.json({ error: "busy" }, { status: 423, headers: { "retry-after": "1" } });
    const orders = Redis.fromEnv(env);
    if (await orders.get(`example:order:${id}:paid`)) return Response.json({ status: "paid" });
    await chargeCard(id, held.signal); // pass the signal: it aborts if the lease is lost
    await orders.set(`example:order:${id}:paid`, held.fence);
    return Response.json({ status: "charged", fence: held.fence });
  } finally {
    ctx.waitUntil(client.settled()); // background cleanups outlive the response
  }
}

/** Stands in for a payment provider's API call. */
async function chargeCard(id: string, signal: AbortSignal): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 50));
  signal.throwIfAborted();
  console.log(`charged order ${id}`);
}
