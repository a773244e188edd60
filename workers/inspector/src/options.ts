import { InvalidArgumentError, type RedisInput } from "@edgelock/core";

/** Options of `createInspectorApp`. */
export interface InspectorAppOptions {
  /** What `createClient` accepts: `{ url, token }` for Upstash REST, an `@upstash/redis` client, a node-redis client. */
  readonly redis: RedisInput;
  /** The operator token: `Authorization: Bearer <token>`, or typed once into the login form. At least 16 characters. */
  readonly token: string;
  /** Key prefix of the clients to inspect. @default "edgelock" */
  readonly prefix?: string;
  /** Let anyone who reaches the app see names and (masked) owners; force-unlock always needs the token. @default false */
  readonly publicRead?: boolean;
  /** How often the page polls, ms (at least 250). @default 1_000 */
  readonly pollMs?: number;
  /** Most names on the overview. @default 200 */
  readonly maxNames?: number;
  /** How long a login lasts, ms. @default 43_200_000 (12 hours) */
  readonly sessionMs?: number;
}

export const DEFAULT_INSPECTOR_OPTIONS = Object.freeze({
  prefix: "edgelock",
  publicRead: false,
  pollMs: 1_000,
  maxNames: 200,
  sessionMs: 43_200_000,
});

export const MIN_TOKEN_LENGTH = 16;

export type ResolvedInspectorOptions = Required<Omit<InspectorAppOptions, "redis">> & {
  readonly redis: RedisInput;
};

export function resolveInspectorOptions(options: unknown): ResolvedInspectorOptions {
  if (typeof options !== "object" || options === null)
    throw new InvalidArgumentError("options", "must be an options object");
  const o = options as InspectorAppOptions;
  const d = DEFAULT_INSPECTOR_OPTIONS;
  if (o.redis === undefined) throw new InvalidArgumentError("options.redis", "is required");
  if (typeof o.token !== "string" || o.token.length < MIN_TOKEN_LENGTH) {
    throw new InvalidArgumentError(
      "options.token",
      `must be a string of at least ${MIN_TOKEN_LENGTH} characters`,
    );
  }
  if (o.publicRead !== undefined && typeof o.publicRead !== "boolean")
    throw new InvalidArgumentError("options.publicRead", "must be a boolean");
  return {
    redis: o.redis,
    token: o.token,
    prefix: o.prefix ?? d.prefix,
    publicRead: o.publicRead ?? d.publicRead,
    pollMs: int("options.pollMs", o.pollMs ?? d.pollMs, 250, 60_000),
    maxNames: int("options.maxNames", o.maxNames ?? d.maxNames, 1, 10_000),
    sessionMs: int("options.sessionMs", o.sessionMs ?? d.sessionMs, 60_000, 2_592_000_000),
  };
}

function int(argument: string, value: unknown, min: number, max: number): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
    throw new InvalidArgumentError(
      argument,
      `must be an integer between ${min} and ${max}, got ${String(value)}`,
    );
  }
  return value;
}
