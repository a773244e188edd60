/** How the replies of every master make one: the first (they agree), their sum, or all items. */
export type MastersCombine = "first" | "sum" | "concat";

export type ClusterRoute =
  | { readonly to: "key"; readonly key: string }
  | { readonly to: "any" }
  | { readonly to: "masters"; readonly combine: MastersCombine }
  | { readonly to: "scan" };

// No key: any node answers the same (PUBLISH is broadcast to every node by the cluster bus).
const KEYLESS = new Set([
  "PING",
  "ECHO",
  "TIME",
  "INFO",
  "LASTSAVE",
  "COMMAND",
  "CONFIG",
  "CLIENT",
  "CLUSTER",
  "PUBLISH",
  "PUBSUB",
  "RANDOMKEY",
  "ROLE",
  "LATENCY",
  "SLOWLOG",
  "ACL",
  "LOLWUT",
]);
// Scripts and functions: numkeys, then the keys; without keys, any node.
const SCRIPTS = new Set(["EVAL", "EVALSHA", "EVAL_RO", "EVALSHA_RO", "FCALL", "FCALL_RO"]);
// numkeys first, then the keys.
const NUMKEYS_FIRST = new Set([
  "ZUNION",
  "ZINTER",
  "ZDIFF",
  "ZINTERCARD",
  "SINTERCARD",
  "LMPOP",
  "ZMPOP",
]);
// A subcommand (or operation) first, then the key.
const KEY_SECOND = new Set(["OBJECT", "MEMORY", "XINFO", "BITOP"]);
// Every master: scripts loaded or flushed on one node only would be a NOSCRIPT (or a stale script)
// elsewhere; the data set's size and keys are the sum of the masters'.
const ON_MASTERS = new Map<string, MastersCombine>([
  ["SCRIPT", "first"],
  ["FLUSHALL", "first"],
  ["FLUSHDB", "first"],
  ["DBSIZE", "sum"],
  ["KEYS", "concat"],
]);

/**
 * Where Redis Cluster runs a command: on the master of its first key's slot, on any node, on
 * every master, or (SCAN) on each master in turn. Raw commands carry no key positions, so they
 * come from this table, which covers what edgelock and its tests send and the usual data
 * commands; any other command is taken to have its key first. The core's cluster backend and the
 * rest-server both route with this table.
 */
export function clusterRoute(args: readonly (string | number)[]): ClusterRoute {
  const name = String(args[0] ?? "").toUpperCase();
  if (name === "SCAN") return { to: "scan" };
  const combine = ON_MASTERS.get(name);
  if (combine !== undefined) return { to: "masters", combine };
  if (KEYLESS.has(name)) return { to: "any" };
  if (SCRIPTS.has(name)) return Number(args[2]) > 0 ? keyAt(args, 3) : { to: "any" };
  if (NUMKEYS_FIRST.has(name)) return keyAt(args, 2);
  if (KEY_SECOND.has(name)) return keyAt(args, 2);
  if (name === "XREAD" || name === "XREADGROUP") {
    const streams = args.findIndex((arg) => String(arg).toUpperCase() === "STREAMS");
    return streams < 0 ? { to: "any" } : keyAt(args, streams + 1);
  }
  return keyAt(args, 1);
}

function keyAt(args: readonly (string | number)[], index: number): ClusterRoute {
  const key = args[index];
  return key === undefined ? { to: "any" } : { to: "key", key: String(key) };
}

/** One reply from every master's, for a `masters` route. */
export function combineReplies(combine: MastersCombine, replies: readonly unknown[]): unknown {
  if (combine === "sum") return replies.reduce<number>((sum, reply) => sum + Number(reply), 0);
  if (combine === "concat") return replies.flatMap((reply) => (Array.isArray(reply) ? reply : []));
  return replies[0];
}
