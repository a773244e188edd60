import { FaultControl } from "./fault-control.ts";
import { startRedis, type RedisProcess, type StartRedisOptions } from "./redis/start-redis.ts";
import { startRestFrontProcess } from "./rest-process.ts";
import { startRestFront } from "./rest-front.ts";

export interface StackOptions extends StartRedisOptions {
  /**
   * Run the rest-server in a process of its own (`startRestFrontProcess`; needs `pnpm build`),
   * for a test that loads its own process with many clients. @default false (in this process)
   */
  readonly restProcess?: boolean;
}

/** A test file's own Redis with a rest-server (faults on) in front of it. */
export interface Stack {
  readonly redis: RedisProcess;
  readonly rest: { readonly url: string; readonly token: string };
  readonly faults: FaultControl;
  /** Closes the rest-server, then stops Redis. */
  close(): Promise<void>;
}

/** `startRedis(options)` + a rest-server in front; the rest-server reconnects across `redis.restart()`. */
export async function startStack(options: StackOptions = {}): Promise<Stack> {
  const redis = await startRedis(options);
  try {
    const rest = await (options.restProcess
      ? startRestFrontProcess(redis.url)
      : startRestFront(redis.url));
    return {
      redis,
      rest: { url: rest.url, token: rest.token },
      faults: new FaultControl(rest.url, rest.token),
      close: async () => {
        try {
          await rest.close();
        } finally {
          await redis.stop();
        }
      },
    };
  } catch (error) {
    await redis.stop();
    throw error;
  }
}
