import type { RedisClientType } from "redis";

/**
 * The part of a node-redis client the server uses. Typed structurally so any connected node-redis
 * v5 client (whatever modules or scripts it was created with) can be passed in.
 */
export type RestRedisClient = Pick<RedisClientType, "sendCommand" | "duplicate">;

/** Options of {@link createApp}. */
export interface RestServerOptions {
  /** A connected node-redis client. The app never closes it: its creator owns it. */
  readonly redis: RestRedisClient;
  /** The bearer token clients must present (`Authorization: Bearer …` or `?_token=`). Non-empty. */
  readonly token: string;
  /**
   * Serve the fault-injection control endpoints (`/__edgelock/faults`, `/__edgelock/flush-scripts`).
   * When off they answer 404 and no fault is ever applied.
   * @default false
   */
  readonly enableFaults?: boolean;
  /**
   * Largest request body accepted, in bytes; larger bodies get 413.
   * @default 1048576 (1 MiB, Upstash's limit for free and pay-as-you-go databases)
   */
  readonly maxBodyBytes?: number;
  /**
   * Receives one line per request and per injected fault. Lines never contain the token or the
   * query string (which may carry `_token`).
   * @default undefined (silent)
   */
  readonly log?: (line: string) => void;
}

export const DEFAULT_REST_SERVER_OPTIONS = Object.freeze({
  enableFaults: false,
  maxBodyBytes: 1024 * 1024,
});

export interface ResolvedRestServerOptions {
  readonly redis: RestRedisClient;
  readonly token: string;
  readonly enableFaults: boolean;
  readonly maxBodyBytes: number;
  readonly log: ((line: string) => void) | undefined;
}

/** Merges defaults once and rejects bad options with a message naming the option and its unit. */
export function resolveRestServerOptions(options: RestServerOptions): ResolvedRestServerOptions {
  if (typeof options !== "object" || options === null) {
    throw new TypeError("createApp: options must be an object");
  }
  if (typeof options.redis?.sendCommand !== "function") {
    throw new TypeError("createApp: options.redis must be a connected node-redis client");
  }
  if (typeof options.token !== "string" || options.token.length === 0) {
    throw new TypeError("createApp: options.token must be a non-empty string");
  }
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_REST_SERVER_OPTIONS.maxBodyBytes;
  if (!Number.isSafeInteger(maxBodyBytes) || maxBodyBytes <= 0) {
    throw new TypeError(
      `createApp: options.maxBodyBytes must be a positive integer number of bytes, got ${String(maxBodyBytes)}`,
    );
  }
  if (options.log !== undefined && typeof options.log !== "function") {
    throw new TypeError("createApp: options.log must be a function");
  }
  return {
    redis: options.redis,
    token: options.token,
    enableFaults: options.enableFaults ?? DEFAULT_REST_SERVER_OPTIONS.enableFaults,
    maxBodyBytes,
    log: options.log,
  };
}
