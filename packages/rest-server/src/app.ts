import { Hono } from "hono";
import { CONTROL_PREFIX, mountControl } from "./control.ts";
import { handleDataPlane } from "./data-plane.ts";
import { ConnectionDroppedError } from "./drop.ts";
import { loggedPath } from "./log-path.ts";
import { Faults, type FaultController } from "./faults.ts";
import { resolveRestServerOptions, type RestServerOptions } from "./options.ts";
import { StatsCounter, type ServerStats } from "./stats.ts";
import { Subscriptions } from "./subscribe.ts";
import { Suspensions } from "./suspend.ts";
import { SYNC_TOKEN_HEADER, SyncTokens } from "./sync-token.ts";

/** An Upstash-compatible REST app, usable in-process through `app.request()` or served by a port. */
export interface RestApp {
  /** The Hono app: `app.fetch` for a server, `app.request(...)` in tests. */
  readonly app: Hono;
  /** A snapshot of the request and command counters. */
  stats(): ServerStats;
  resetStats(): void;
  /** Fault rules; `add` rejects unless the app was created with `enableFaults: true`. */
  readonly faults: FaultController;
  /** Ends subscriber streams (closing their Redis connections) and releases hung requests. */
  close(): Promise<void>;
}

/** Builds the app around a connected node-redis client, which stays owned by the caller. */
export function createApp(options: RestServerOptions): RestApp {
  const resolved = resolveRestServerOptions(options);
  const { redis, token, enableFaults, maxBodyBytes } = resolved;
  const log = resolved.log ?? (() => undefined);
  const stats = new StatsCounter();
  const syncTokens = new SyncTokens();
  const suspensions = new Suspensions();
  const subscriptions = new Subscriptions(redis);
  const faults = new Faults(enableFaults, async () => {
    await redis.sendCommand(["SCRIPT", "FLUSH"]);
  });

  const app = new Hono();
  // Upstash sends a sync token with every answer; @upstash/redis stores it (readYourWrites).
  app.use(async (c, next) => {
    await next();
    c.res.headers.set(SYNC_TOKEN_HEADER, syncTokens.next());
    // The command only: the query string may carry `_token`, later segments owner ids.
    if (!c.req.path.startsWith(CONTROL_PREFIX)) {
      log(`${c.req.method} ${loggedPath(c.req.path)} ${c.res.status}`);
    }
  });
  mountControl(app, { token, enableFaults, maxBodyBytes, stats, faults });
  const execute = { redis, onCommand: (name: string) => stats.countCommand(name) };
  app.all("*", (c) =>
    handleDataPlane(
      { token, maxBodyBytes, stats, execute, subscriptions, faults, suspensions, log },
      c,
    ),
  );
  app.onError((error, c) => {
    // A dropped connection has no response; rethrowing makes `app.request()` reject like fetch.
    if (error instanceof ConnectionDroppedError) throw error;
    log(`error on ${c.req.method} ${loggedPath(c.req.path)}: ${error.message}`);
    return c.json({ error: `ERR internal server error: ${error.message}` }, 500);
  });

  return {
    app,
    stats: () => stats.snapshot(),
    resetStats: () => stats.reset(),
    faults,
    close: async () => {
      subscriptions.closeAll();
      suspensions.releaseAll();
    },
  };
}
