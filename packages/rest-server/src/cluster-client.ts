import { ErrorReply } from "redis";
import {
  byAddress,
  clusterRoute,
  combineReplies,
  nextScanCursor,
  scanStep,
} from "@edgelock/redis-cluster-routing";
import type { RestRedisClient } from "./options.ts";

type SendOptions = Parameters<RestRedisClient["sendCommand"]>[1];

/** One master of a node-redis cluster client (`cluster.masters`). */
export interface ClusterNodeLike {
  readonly address: string;
}

/**
 * The part of a node-redis v5 cluster client (`createCluster`, connected) the server uses; typed
 * structurally, like {@link RestRedisClient}, so any such client fits.
 */
export interface RestRedisCluster {
  sendCommand(
    firstKey: string | undefined,
    isReadonly: boolean | undefined,
    args: string[],
    options?: SendOptions,
  ): Promise<unknown>;
  readonly masters: readonly ClusterNodeLike[];
  nodeClient(node: ClusterNodeLike): Promise<{
    sendCommand(args: string[], options?: SendOptions): Promise<unknown>;
  }>;
  duplicate(overrides: { minimizeConnections: boolean }): unknown;
}

/**
 * Lets the app front a Redis Cluster: each command goes to the master of its first key's slot
 * (the cluster client follows MOVED and ASK), keyless ones to any node, SCRIPT, FLUSH*, DBSIZE
 * and KEYS to every master, and SCAN walks the masters behind one cursor. A script's keys share
 * one slot only if its caller tagged them so; otherwise Redis answers CROSSSLOT, as it should.
 * Transactions (`/multi-exec`) are refused: their commands go out one by one on a shared
 * connection, which a cluster client cannot pin to one node. Subscribers are duplicates of the
 * cluster client (PUBLISH reaches every node, so any node serves them).
 */
export function clusterRedisClient(cluster: RestRedisCluster): RestRedisClient {
  const sendCommand = async (args: readonly unknown[], options?: SendOptions): Promise<unknown> => {
    if (options?.chainId !== undefined) {
      throw new ErrorReply("ERR transactions are not supported in front of a Redis Cluster");
    }
    const command = args.map(String);
    const route = clusterRoute(command);
    if (route.to === "key") return cluster.sendCommand(route.key, false, command, options);
    if (route.to === "any") return cluster.sendCommand(undefined, false, command, options);
    const masters = byAddress(cluster.masters);
    if (route.to === "masters") {
      const replies = await Promise.all(
        masters.map(async (node) => (await cluster.nodeClient(node)).sendCommand(command, options)),
      );
      return combineReplies(route.combine, replies);
    }
    const step = scanStep(String(command[1]), masters.length);
    if (step === undefined) throw new ErrorReply("ERR invalid cursor");
    const client = await cluster.nodeClient(masters[step.node]!);
    const reply = await client.sendCommand(["SCAN", step.cursor, ...command.slice(2)], options);
    const [next, keys] = reply as [unknown, unknown];
    return [nextScanCursor(step.node, String(next), masters.length), keys];
  };
  // The app reads replies and subscribers only through what both client kinds share; the cast
  // states that once, here.
  // A subscriber needs one connection, not one per master.
  const duplicate = () => cluster.duplicate({ minimizeConnections: true });
  return { sendCommand, duplicate } as unknown as RestRedisClient;
}
