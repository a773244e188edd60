import { execFile } from "node:child_process";
import { setTimeout as sleep } from "node:timers/promises";
import { promisify } from "node:util";
import { RedisStartError, TestkitError } from "../errors.ts";
import { freePort } from "../free-port.ts";
import { startRedis, type RedisProcess } from "./start-redis.ts";

const run = promisify(execFile);

export interface StartClusterOptions {
  /** Master nodes, each owning an equal share of the 16384 slots; no replicas. @default 3 */
  readonly masters?: number;
}

/** A Redis Cluster of the caller's own: masters on free ports, each in its own temp dir. */
export interface RedisClusterProcess {
  /** The masters, in the order `redis-cli --cluster create` assigned slot ranges (0 owns slot 0). */
  readonly nodes: readonly RedisProcess[];
  /** `redis://127.0.0.1:PORT` of every node: what node-redis' `createCluster` takes as root nodes. */
  readonly urls: readonly string[];
  /** Stops every node and removes its dir. Idempotent. */
  close(): Promise<void>;
}

export const CLUSTER_READY_TIMEOUT_MS = 20_000;
const NODE_ATTEMPTS = 3;

/**
 * Starts `masters` cluster-enabled redis-servers and joins them with `redis-cli --cluster create`,
 * resolving once every node reports `cluster_state:ok` and knows every other node.
 */
export async function startCluster(
  options: StartClusterOptions = {},
): Promise<RedisClusterProcess> {
  const masters = options.masters ?? 3;
  if (!Number.isInteger(masters) || masters < 3) {
    throw new TestkitError(
      "redis-start",
      `masters must be an integer of at least 3 (redis-cli --cluster create needs 3), got ${masters}`,
    );
  }
  const nodes: RedisProcess[] = [];
  const close = async () => {
    await Promise.all(nodes.map((node) => node.stop()));
  };
  try {
    for (let i = 0; i < masters; i++) nodes.push(await startNode());
    const addresses = nodes.map((node) => `127.0.0.1:${node.port}`);
    await run(
      "redis-cli",
      ["--cluster", "create", ...addresses, "--cluster-replicas", "0", "--cluster-yes"],
      {
        timeout: CLUSTER_READY_TIMEOUT_MS,
      },
    );
    await waitUntilReady(nodes);
  } catch (error) {
    await close();
    throw error;
  }
  let closing: Promise<void> | undefined;
  return { nodes, urls: nodes.map((node) => node.url), close: () => (closing ??= close()) };
}

/** One cluster-enabled node; its bus port is a free port of its own (not port + 10000, which may exceed 65535). */
async function startNode(): Promise<RedisProcess> {
  for (let attempt = 1; ; attempt++) {
    const busPort = await freePort();
    const args = [
      "--cluster-enabled",
      "yes",
      "--cluster-config-file",
      "nodes.conf",
      "--cluster-port",
      String(busPort),
      "--cluster-node-timeout",
      "5000",
    ];
    try {
      return await startRedis({ args });
    } catch (error) {
      // The bus port may have been taken between freePort() and the bind.
      if (!(error instanceof RedisStartError) || attempt >= NODE_ATTEMPTS) throw error;
    }
  }
}

async function waitUntilReady(nodes: readonly RedisProcess[]): Promise<void> {
  const deadline = Date.now() + CLUSTER_READY_TIMEOUT_MS;
  for (;;) {
    const infos = await Promise.all(nodes.map((node) => clusterInfo(node.port)));
    const ready = infos.every(
      (info) =>
        /^cluster_state:ok\r?$/m.test(info) &&
        new RegExp(`^cluster_known_nodes:${nodes.length}\\r?$`, "m").test(info),
    );
    if (ready) return;
    if (Date.now() > deadline) {
      throw new TestkitError(
        "redis-start",
        `cluster not ready within ${CLUSTER_READY_TIMEOUT_MS} ms:\n${infos.join("\n---\n")}`,
      );
    }
    await sleep(50);
  }
}

async function clusterInfo(port: number): Promise<string> {
  const { stdout } = await run(
    "redis-cli",
    ["-h", "127.0.0.1", "-p", String(port), "cluster", "info"],
    { timeout: 2_000 },
  );
  return stdout;
}
