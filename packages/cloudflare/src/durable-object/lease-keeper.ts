import { hasBearer, unauthorized } from "../auth.ts";
import type { DurableObjectStateLike } from "../cf-types.ts";
import type { EdgelockEnv } from "@edgelock/core/hand-over";
import { redisFromEnv } from "../from-env.ts";
import { parseRequest } from "./parse-request.ts";
import { redisOps, whyNotResumable, type RedisOps } from "./redis-ops.ts";
import { heartbeat, keep, release, status, type Answer } from "./requests.ts";
import { leaseStore, type LeaseStore } from "./store.ts";
import { tick } from "./tick.ts";

/**
 * The Durable Object lease keeper: one object per lease, renewing it with `storage.setAlarm`
 * until it is released, until `maxHoldMs`, or until the holder misses a heartbeat. Export it
 * from your Worker and bind it (`durable_objects.bindings`, class `LeaseKeeper`); its env needs
 * `UPSTASH_REDIS_REST_URL`, `UPSTASH_REDIS_REST_TOKEN` and `EDGELOCK_KEEPER_SECRET`.
 *
 * A plain class (no `cloudflare:workers` import), so this package also loads on Vercel and Node.
 */
export class LeaseKeeper {
  readonly #store: LeaseStore;
  readonly #env: object;
  #ops: RedisOps | undefined;

  constructor(ctx: DurableObjectStateLike, env: object) {
    this.#store = leaseStore(ctx.storage);
    this.#env = env;
  }

  async fetch(request: Request): Promise<Response> {
    const secret = (this.#env as EdgelockEnv).EDGELOCK_KEEPER_SECRET;
    // Without a configured secret the object answers nobody: an open keeper could be made to hold any lock.
    if (typeof secret !== "string" || secret === "") return error(500, MISSING_SECRET);
    if (!(await hasBearer(request, secret))) return unauthorized();
    const parsed = await parseRequest(request);
    if ("error" in parsed) return error(parsed.status, parsed.error);
    let answer: Answer;
    try {
      const { op, body } = parsed;
      if (op === "keep") {
        const refused = whyNotResumable(redisFromEnv(this.#env), body.lease);
        if (refused !== undefined) return error(400, refused);
        answer = await keep(this.#store, this.#redis(), body);
      } else if (op === "heartbeat") answer = await heartbeat(this.#store, body.lease);
      else if (op === "release") answer = await release(this.#store, this.#redis(), body.lease);
      else answer = await status(this.#store, body.lease);
    } catch (e) {
      return error(500, e instanceof Error ? e.message : String(e));
    }
    return Response.json(answer.body, { status: answer.status });
  }

  async alarm(): Promise<void> {
    await tick(this.#store, this.#redis());
  }

  #redis(): RedisOps {
    this.#ops ??= redisOps(redisFromEnv(this.#env));
    return this.#ops;
  }
}

const MISSING_SECRET =
  "EDGELOCK_KEEPER_SECRET is not set: run `wrangler secret put EDGELOCK_KEEPER_SECRET`";

function error(status: number, message: string): Response {
  return Response.json({ error: message }, { status });
}
