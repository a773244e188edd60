// POST /api/increment?name=… — a read-modify-write made safe by a lock.
// Node.js runtime by default; for the Edge runtime add: export const config = { runtime: "edge" };
import { Redis } from "@upstash/redis";
import { edgelock } from "../lib/edgelock.ts";

export async function POST(request: Request): Promise<Response> {
  const name = new URL(request.url).searchParams.get("name") ?? "default";
  const lock = edgelock().lock(`counter:${name}`);
  const held = await lock.tryAcquire();
  if (!held)
    return Response.json(
      { error: "locked", name },
      { status: 423, headers: { "retry-after": "1" } },
    );
  try {
    const redis = Redis.fromEnv();
    const key = `example:counter:${name}`;
    const value = Number((await redis.get<number>(key)) ?? 0) + 1;
    if (held.signal.aborted) throw held.signal.reason; // the lease was lost: do not write
    await redis.set(key, value);
    return Response.json({ value, fence: held.fence });
  } finally {
    await held[Symbol.asyncDispose]();
  }
}
