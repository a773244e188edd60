import { parseArgs } from "node:util";

export const USAGE = `Usage: edgelock-rest-server [options]

An Upstash-REST-compatible HTTP server in front of a Redis.

Options:
  --redis-url <url>   Redis to serve          (env REDIS_URL, default redis://127.0.0.1:6379)
  --cluster           The Redis is a node of a Redis Cluster: route each command by its key
  --port <n>          TCP port, 0 = any free  (env PORT, default 8079)
  --host <host>       Interface to listen on  (env HOST, default 127.0.0.1)
  --token <token>     Bearer token clients must present
                      (env EDGELOCK_REST_TOKEN or UPSTASH_REDIS_REST_TOKEN; required)
  --enable-faults     Serve the fault-injection control endpoints (tests only)
  --max-body-bytes <n> Largest accepted request body (default 1048576)
  --verbose           Log one line per request
  --help              Show this help
`;

export interface CliConfig {
  readonly redisUrl: string;
  readonly cluster: boolean;
  readonly port: number;
  readonly host: string;
  readonly token: string;
  readonly enableFaults: boolean;
  readonly maxBodyBytes: number | undefined;
  readonly verbose: boolean;
}

/** A command line that cannot be run; the message says what to change. */
export class CliUsageError extends Error {
  override readonly name = "CliUsageError";
}

/** Flags first, then environment variables, then defaults. `"help"` when --help was given. */
export function parseCli(argv: readonly string[], env: NodeJS.ProcessEnv): CliConfig | "help" {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        "redis-url": { type: "string" },
        cluster: { type: "boolean" },
        port: { type: "string" },
        host: { type: "string" },
        token: { type: "string" },
        "enable-faults": { type: "boolean" },
        "max-body-bytes": { type: "string" },
        verbose: { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
    }));
  } catch (error) {
    throw new CliUsageError((error as Error).message);
  }
  if (values.help === true) return "help";
  const token = values.token ?? env["EDGELOCK_REST_TOKEN"] ?? env["UPSTASH_REDIS_REST_TOKEN"] ?? "";
  if (token.length === 0) {
    throw new CliUsageError(
      "a token is required: pass --token or set EDGELOCK_REST_TOKEN (or UPSTASH_REDIS_REST_TOKEN)",
    );
  }
  const maxBody = values["max-body-bytes"];
  return {
    redisUrl: values["redis-url"] ?? env["REDIS_URL"] ?? "redis://127.0.0.1:6379",
    cluster: values.cluster === true,
    port: integer("--port", values.port ?? env["PORT"] ?? "8079", 0, 65_535),
    host: values.host ?? env["HOST"] ?? "127.0.0.1",
    token,
    enableFaults: values["enable-faults"] === true,
    maxBodyBytes:
      maxBody === undefined
        ? undefined
        : integer("--max-body-bytes", maxBody, 1, Number.MAX_SAFE_INTEGER),
    verbose: values.verbose === true,
  };
}

function integer(flag: string, text: string, min: number, max: number): number {
  const value = Number(text);
  if (!/^\d+$/.test(text.trim()) || value < min || value > max) {
    throw new CliUsageError(
      `${flag} must be an integer from ${min} to ${max}, got ${JSON.stringify(text)}`,
    );
  }
  return value;
}
