import { KEEPER_PATH_PREFIX, type EdgelockEnv } from "@edgelock/core/hand-over";
import { hasBearer, unauthorized } from "./auth.ts";
import type { DurableObjectNamespaceLike } from "./cf-types.ts";

/** Options of `leaseKeeperWorker`. */
export interface LeaseKeeperWorkerOptions {
  /** Durable Object binding to the `LeaseKeeper` class. @default "LEASE_KEEPER" */
  readonly binding?: string;
}

const OBJECT_PATH = new RegExp(`^${KEEPER_PATH_PREFIX}([0-9a-f]{64})/[a-z]+$`);

/**
 * The keeper Worker's front door for callers outside Cloudflare (Vercel, Node): checks the
 * shared secret, then forwards `POST /v1/leases/{object}/{op}` to that lease's object, which
 * checks the secret again (a binding can reach it without passing here).
 */
export function leaseKeeperWorker(options: LeaseKeeperWorkerOptions = {}) {
  const binding = options.binding ?? "LEASE_KEEPER";
  return {
    async fetch(request: Request, env: object): Promise<Response> {
      const secret = (env as EdgelockEnv).EDGELOCK_KEEPER_SECRET;
      if (typeof secret !== "string" || secret === "") {
        return Response.json(
          {
            error:
              "EDGELOCK_KEEPER_SECRET is not set: run `wrangler secret put EDGELOCK_KEEPER_SECRET`",
          },
          { status: 500 },
        );
      }
      if (!(await hasBearer(request, secret))) return unauthorized();
      const match = OBJECT_PATH.exec(new URL(request.url).pathname);
      if (!match?.[1])
        return Response.json(
          { error: `not found: use POST ${KEEPER_PATH_PREFIX}{object}/{op}` },
          { status: 404 },
        );
      const namespace = (env as Record<string, unknown>)[binding] as
        DurableObjectNamespaceLike | undefined;
      if (!namespace)
        return Response.json(
          { error: `env.${binding}: missing Durable Object binding to LeaseKeeper` },
          { status: 500 },
        );
      const stub = namespace.get(namespace.idFromName(match[1]) as never);
      return stub.fetch(request.url, {
        method: request.method,
        headers: request.headers,
        body: await request.text(),
      });
    },
  };
}
