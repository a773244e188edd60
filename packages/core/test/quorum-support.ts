import { makeNodeRedis, type NodeRedisClient, type RedisProcess } from "@edgelock/testkit";
import { TransportError, type Backend } from "../src/index.ts";
import { quorumKeys } from "../src/keys.ts";

/**
 * A backend that answers only after `ms` more, whatever its caller's timeout says: a process
 * paused (GC, a starved event loop) between sending a request and handling the reply.
 */
export function slowBackend(inner: Backend, ms: number): Backend {
  return {
    kind: inner.kind,
    async command(args, signal) {
      const reply = await inner.command(args, signal);
      await new Promise((r) => setTimeout(r, ms));
      return reply;
    },
  };
}

/** A backend that can be switched off: while down, every request fails before it runs. */
export function switchableBackend(inner: Backend): {
  backend: Backend;
  setDown(down: boolean): void;
} {
  let down = false;
  return {
    backend: {
      kind: inner.kind,
      command(args, signal) {
        if (down)
          return Promise.reject(
            new TransportError("connection refused (database down in the test)", {
              ambiguous: false,
            }),
          );
        return inner.command(args, signal);
      },
    },
    setDown: (d) => void (down = d),
  };
}

/** Raw node-redis clients to the databases, for checking what is left behind. */
export async function rawClients(nodes: readonly RedisProcess[]): Promise<NodeRedisClient[]> {
  return Promise.all(nodes.map((n) => makeNodeRedis(n.url)));
}

/** Whether each running database holds the quorum lock `name`; `null` for a database that is down. */
export async function heldOn(
  nodes: readonly RedisProcess[],
  raws: readonly NodeRedisClient[],
  prefix: string,
  name: string,
): Promise<(boolean | null)[]> {
  const key = quorumKeys(prefix, name).lock;
  return Promise.all(
    nodes.map(async (node, i) => (node.running ? (await raws[i]!.exists(key)) === 1 : null)),
  );
}

/** Restarts every database that is not running (keeping its data). */
export async function reviveAll(nodes: readonly RedisProcess[]): Promise<void> {
  await Promise.all(nodes.filter((n) => !n.running).map((n) => n.restart()));
}
