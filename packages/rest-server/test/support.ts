import { randomUUID } from "node:crypto";
import {
  startRestServer,
  type RunningRestServer,
  type StartRestServerOptions,
} from "../src/index.ts";
import { startRedis, type RedisProcess } from "./redis-process.ts";

/** A redis-server and a rest-server in front of it, both this test file's own. */
export interface TestStack {
  readonly redis: RedisProcess;
  readonly server: RunningRestServer;
  readonly token: string;
  /** Raw `fetch` against the server; `auth: false` sends no token. */
  call(path: string, init?: CallInit): Promise<CallResult>;
  close(): Promise<void>;
}

export interface CallInit {
  readonly method?: string;
  readonly body?: unknown;
  readonly headers?: Record<string, string>;
  readonly auth?: boolean;
  readonly signal?: AbortSignal;
}

export interface CallResult {
  readonly status: number;
  readonly headers: Headers;
  readonly json: unknown;
}

export async function startStack(
  options: Omit<StartRestServerOptions, "redisUrl" | "token"> = {},
): Promise<TestStack> {
  const redis = await startRedis();
  const token = `t-${randomUUID()}`;
  let server: RunningRestServer;
  try {
    server = await startRestServer({ redisUrl: redis.url, token, ...options });
  } catch (error) {
    await redis.stop();
    throw error;
  }
  return {
    redis,
    server,
    token,
    call: async (path, init = {}) => {
      const headers: Record<string, string> = { ...init.headers };
      if (init.auth !== false) headers["authorization"] = `Bearer ${token}`;
      const body =
        init.body === undefined
          ? undefined
          : typeof init.body === "string"
            ? init.body
            : JSON.stringify(init.body);
      const response = await fetch(`${server.url}${path}`, {
        method: init.method ?? (body === undefined ? "GET" : "POST"),
        headers,
        ...(body !== undefined && { body }),
        ...(init.signal !== undefined && { signal: init.signal }),
      });
      const text = await response.text();
      return {
        status: response.status,
        headers: response.headers,
        json: text === "" ? undefined : JSON.parse(text),
      };
    },
    close: async () => {
      await server.close();
      await redis.stop();
    },
  };
}

/** A key no other test uses. */
export const uniqueKey = (label: string) => `${label}:${randomUUID()}`;

export const base64 = (text: string) => Buffer.from(text, "utf8").toString("base64");
