import { InvalidArgumentError } from "@edgelock/core/lock";
import {
  httpTransport,
  leaseKeeperClient,
  redisFromEnv as redisFrom,
  type LeaseKeeperClient,
  type LeaseKeeperClientOptions,
} from "@edgelock/cloudflare";

/** The variables the helpers read (Project Settings → Environment Variables). */
export interface VercelEdgelockEnv {
  readonly UPSTASH_REDIS_REST_URL?: string | undefined;
  readonly UPSTASH_REDIS_REST_TOKEN?: string | undefined;
  readonly EDGELOCK_KEEPER_URL?: string | undefined;
  readonly EDGELOCK_KEEPER_SECRET?: string | undefined;
}

// `process.env` exists on both Vercel runtimes (Node and Edge); read lazily, never at import.
const processEnv = (): VercelEdgelockEnv =>
  (globalThis as { process?: { env?: VercelEdgelockEnv } }).process?.env ?? {};

/** A client of your deployed lease-keeper Worker over HTTPS (see examples/lease-keeper-worker): `EDGELOCK_KEEPER_URL` + `EDGELOCK_KEEPER_SECRET`. */
export function keeperFromEnv(
  env: VercelEdgelockEnv = processEnv(),
  options: LeaseKeeperClientOptions = {},
): LeaseKeeperClient {
  const url = env.EDGELOCK_KEEPER_URL;
  const secret = env.EDGELOCK_KEEPER_SECRET;
  if (!url)
    throw new InvalidArgumentError(
      "EDGELOCK_KEEPER_URL",
      "is not set: the https URL of your deployed lease-keeper Worker (Project Settings → Environment Variables, or `vercel env add EDGELOCK_KEEPER_URL`)",
    );
  if (!secret)
    throw new InvalidArgumentError(
      "EDGELOCK_KEEPER_SECRET",
      "is not set: the same value as the keeper Worker's secret (`vercel env add EDGELOCK_KEEPER_SECRET`)",
    );
  return leaseKeeperClient(httpTransport({ url, secret }), options);
}

/** Upstash REST credentials from `UPSTASH_REDIS_REST_URL` / `UPSTASH_REDIS_REST_TOKEN`, as `createClient({ redis })` takes them. */
export function redisFromEnv(env: VercelEdgelockEnv = processEnv()): {
  url: string;
  token: string;
} {
  try {
    return redisFrom(env as Record<string, string | undefined>);
  } catch (error) {
    // Same check, Vercel's words: where to set the variable.
    const argument =
      (error as InvalidArgumentError).argument?.replace(/^env\./, "") ?? "UPSTASH_REDIS_REST_URL";
    throw new InvalidArgumentError(
      argument,
      "is not set: add it in Project Settings → Environment Variables (or the Upstash integration), or `vercel env add " +
        argument +
        "`",
    );
  }
}
