import {
  httpTransport,
  leaseKeeperClient,
  type EdgelockEnv,
  type LeaseKeeperClient,
  type LeaseKeeperClientOptions,
} from "@edgelock/core/hand-over";
import { InvalidArgumentError } from "@edgelock/core/options";
import type { DurableObjectNamespaceLike } from "./cf-types.ts";
import { bindingTransport } from "./client/binding-transport.ts";

/**
 * The variables of `EdgelockEnv`, and bindings looked up by name: any object is accepted (a
 * Worker's typed `Env` has no index signature).
 */
type AnyEnv = EdgelockEnv | object;
const read = (env: AnyEnv, name: string): unknown => (env as Record<string, unknown>)[name];

/** Upstash REST credentials from `env`, as `createClient({ redis })` accepts them. */
export function redisFromEnv(env: AnyEnv): { url: string; token: string } {
  return {
    url: requireVar(
      env,
      "UPSTASH_REDIS_REST_URL",
      "the REST URL of your Upstash database (or a local rest-server)",
    ),
    token: requireVar(env, "UPSTASH_REDIS_REST_TOKEN", "the REST token of your Upstash database"),
  };
}

/** Options of `keeperFromEnv`. */
export interface KeeperFromEnvOptions extends LeaseKeeperClientOptions {
  /** Name of the Durable Object binding to the `LeaseKeeper` class. @default "LEASE_KEEPER" */
  readonly binding?: string;
}

/**
 * A client of the Durable Object keeper: through the binding `env.LEASE_KEEPER` when there is
 * one, else over HTTPS to `env.EDGELOCK_KEEPER_URL`; always with `env.EDGELOCK_KEEPER_SECRET`.
 */
export function keeperFromEnv(env: AnyEnv, options: KeeperFromEnvOptions = {}): LeaseKeeperClient {
  const binding = options.binding ?? "LEASE_KEEPER";
  const secret = requireVar(
    env,
    "EDGELOCK_KEEPER_SECRET",
    "the shared secret of the lease-keeper Worker",
  );
  const namespace = read(env, binding);
  if (isNamespace(namespace))
    return leaseKeeperClient(bindingTransport(namespace, secret), options);
  if (namespace !== undefined) {
    throw new InvalidArgumentError(
      `env.${binding}`,
      "is not a Durable Object namespace binding (check durable_objects.bindings in wrangler.jsonc)",
    );
  }
  const url = read(env, "EDGELOCK_KEEPER_URL");
  if (typeof url === "string" && url !== "")
    return leaseKeeperClient(httpTransport({ url, secret }), options);
  throw new InvalidArgumentError(
    `env.${binding}`,
    `is missing: add a Durable Object binding { "name": "${binding}", "class_name": "LeaseKeeper", "script_name": "edgelock-lease-keeper" } ` +
      "to durable_objects.bindings in wrangler.jsonc, or set EDGELOCK_KEEPER_URL to the keeper Worker's https URL",
  );
}

function requireVar(env: AnyEnv, name: string, what: string): string {
  if (typeof env !== "object" || env === null)
    throw new InvalidArgumentError("env", "must be the Worker's env object");
  const value = read(env, name);
  if (typeof value === "string" && value !== "") return value;
  throw new InvalidArgumentError(
    `env.${name}`,
    `is not set: it must hold ${what}. Run \`wrangler secret put ${name}\` (locally: a line in .dev.vars)`,
  );
}

function isNamespace(value: unknown): value is DurableObjectNamespaceLike {
  const v = value as Record<string, unknown> | null;
  return (
    typeof v === "object" &&
    v !== null &&
    typeof v["idFromName"] === "function" &&
    typeof v["get"] === "function"
  );
}
