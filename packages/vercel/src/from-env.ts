import {
  httpTransport,
  leaseKeeperClient,
  type EdgelockEnv,
  type LeaseKeeperClient,
  type LeaseKeeperClientOptions,
} from "@edgelock/core/hand-over";
import { InvalidArgumentError } from "@edgelock/core/options";

/** The variables the helpers read (Project Settings → Environment Variables): `EdgelockEnv`. */
export type VercelEdgelockEnv = EdgelockEnv;

// `process.env` exists on both Vercel runtimes (Node and Edge); read lazily, never at import.
const processEnv = (): VercelEdgelockEnv =>
  (globalThis as { process?: { env?: VercelEdgelockEnv } }).process?.env ?? {};

// Where each variable comes from, said in the error when it is missing.
const WHERE: Readonly<Record<keyof VercelEdgelockEnv, string>> = {
  UPSTASH_REDIS_REST_URL:
    "add it in Project Settings → Environment Variables (or the Upstash integration), or `vercel env add UPSTASH_REDIS_REST_URL`",
  UPSTASH_REDIS_REST_TOKEN:
    "add it in Project Settings → Environment Variables (or the Upstash integration), or `vercel env add UPSTASH_REDIS_REST_TOKEN`",
  EDGELOCK_KEEPER_URL:
    "the https URL of your deployed lease-keeper Worker (Project Settings → Environment Variables, or `vercel env add EDGELOCK_KEEPER_URL`)",
  EDGELOCK_KEEPER_SECRET:
    "the same value as the keeper Worker's secret (`vercel env add EDGELOCK_KEEPER_SECRET`)",
};

/** A client of your deployed lease-keeper Worker over HTTPS (see examples/lease-keeper-worker): `EDGELOCK_KEEPER_URL` + `EDGELOCK_KEEPER_SECRET`. */
export function keeperFromEnv(
  env: VercelEdgelockEnv = processEnv(),
  options: LeaseKeeperClientOptions = {},
): LeaseKeeperClient {
  const url = requireVar(env, "EDGELOCK_KEEPER_URL");
  const secret = requireVar(env, "EDGELOCK_KEEPER_SECRET");
  return leaseKeeperClient(httpTransport({ url, secret }), options);
}

/** Upstash REST credentials from `UPSTASH_REDIS_REST_URL` / `UPSTASH_REDIS_REST_TOKEN`, as `createClient({ redis })` takes them. */
export function redisFromEnv(env: VercelEdgelockEnv = processEnv()): {
  url: string;
  token: string;
} {
  return {
    url: requireVar(env, "UPSTASH_REDIS_REST_URL"),
    token: requireVar(env, "UPSTASH_REDIS_REST_TOKEN"),
  };
}

function requireVar(env: VercelEdgelockEnv, name: keyof VercelEdgelockEnv): string {
  const value = (env as Record<string, unknown> | null)?.[name];
  if (typeof value === "string" && value !== "") return value;
  throw new InvalidArgumentError(name, `is not set: ${WHERE[name]}`);
}
