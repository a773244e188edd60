import { ReplyError, TransportError, type Backend } from "./backend.ts";
import {
  byAddress,
  clusterRoute,
  combineReplies,
  nextScanCursor,
  scanStep,
} from "@edgelock/redis-cluster-routing";
import { slotOfKey } from "../cluster-slot.ts";
import { commandError, normalise, raceSignal, type NodeRedisLike } from "./node-redis.ts";

/** One master of a node-redis cluster client (`cluster.masters`). */
export interface ClusterNodeLike {
  readonly address: string;
}

/** The part of a node-redis (v5) cluster client (`createCluster`) the engine uses. */
export interface NodeRedisClusterLike {
  /** Runs `args` on the master of `firstKey`'s slot (any node without a key), following MOVED and ASK. */
  sendCommand(
    firstKey: string | undefined,
    isReadonly: boolean | undefined,
    args: string[],
  ): Promise<unknown>;
  readonly masters: readonly ClusterNodeLike[];
  /** The client's slot map (node-redis v5's `cluster.slots`): each slot's master. */
  readonly slots?: readonly ({ readonly master?: ClusterNodeLike } | undefined)[];
  nodeClient(node: ClusterNodeLike): Promise<NodeRedisLike>;
  readonly isOpen?: boolean;
}

/**
 * node-redis' cluster client over TCP. A cluster client needs each command's first key to pick
 * the node (its `sendCommand` takes it apart from the arguments); scripts get KEYS[1], which
 * shares its hash tag with every other key of the call. Replies and errors are read as by
 * `nodeRedisBackend`. SCAN walks every master; SCRIPT, FLUSH*, DBSIZE and KEYS go to every master.
 */
export function nodeRedisClusterBackend(cluster: NodeRedisClusterLike): Backend {
  const send = async (args: string[]): Promise<unknown> => {
    const route = clusterRoute(args);
    if (route.to === "key") return cluster.sendCommand(route.key, false, args);
    if (route.to === "any") return cluster.sendCommand(undefined, false, args);
    const masters = byAddress(cluster.masters);
    if (route.to === "masters") {
      const replies = await Promise.all(
        masters.map(async (node) => (await cluster.nodeClient(node)).sendCommand(args)),
      );
      return combineReplies(route.combine, replies);
    }
    const step = scanStep(String(args[1]), masters.length);
    if (step === undefined) throw new ReplyError("ERR invalid cursor");
    const client = await cluster.nodeClient(masters[step.node]!);
    const [next, keys] = (await client.sendCommand(["SCAN", step.cursor, ...args.slice(2)])) as [
      unknown,
      unknown,
    ];
    return [nextScanCursor(step.node, String(next), masters.length), keys];
  };
  const masterOf = (key: string): ClusterNodeLike | undefined =>
    cluster.slots?.[slotOfKey(key)]?.master;
  /**
   * A keyed command sent straight to the master the slot map names, so the node that answered is
   * known; a MOVED or ASK answer (nothing ran) goes again through node-redis' own routing, which
   * follows it, and the answerer is then unknown (`null`).
   */
  const sendAt = async (args: string[]): Promise<{ reply: unknown; at: string | null }> => {
    const route = clusterRoute(args);
    const node = route.to === "key" ? masterOf(route.key) : undefined;
    if (route.to !== "key" || node === undefined) return { reply: await send(args), at: null };
    try {
      return { reply: await (await cluster.nodeClient(node)).sendCommand(args), at: node.address };
    } catch (error) {
      if (!isRedirect(error)) throw error;
      return { reply: await cluster.sendCommand(route.key, false, args), at: null };
    }
  };
  const open = () => {
    if (cluster.isOpen === false)
      throw new TransportError("client is closed", { ambiguous: false });
  };
  return {
    kind: "tcp",
    async command(args, signal) {
      open();
      const pending = send(args.map(String));
      try {
        return normalise(await raceSignal(pending, signal));
      } catch (error) {
        throw commandError(error);
      }
    },
    nodeOf: (key) => masterOf(key)?.address,
    async commandAt(args, signal) {
      open();
      const pending = sendAt(args.map(String));
      try {
        const { reply, at } = await raceSignal(pending, signal);
        return { reply: normalise(reply), at };
      } catch (error) {
        throw commandError(error);
      }
    },
  };
}

/** MOVED or ASK: the node did not run the command, another one owns (or is importing) the slot. */
function isRedirect(error: unknown): boolean {
  return error instanceof Error && /^(MOVED|ASK) /.test(error.message);
}

/** A node-redis cluster client, told apart from a single-node client by its masters and node clients. */
export function isNodeRedisCluster(candidate: Record<string, unknown>): boolean {
  return (
    typeof candidate["sendCommand"] === "function" &&
    typeof candidate["nodeClient"] === "function" &&
    Array.isArray(candidate["masters"])
  );
}
