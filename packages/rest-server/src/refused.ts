import type { CommandArgs } from "./parse.ts";

// Commands that block the connection until data arrives. Upstash does not serve them over REST
// (a request must answer promptly), and here they would stall every request sharing the one
// node-redis connection.
const BLOCKING = new Set([
  "BLPOP",
  "BRPOP",
  "BRPOPLPUSH",
  "BLMOVE",
  "BLMPOP",
  "BZPOPMIN",
  "BZPOPMAX",
  "BZMPOP",
  "WAIT",
  "WAITAOF",
]);

// Transactions are only available as one request to /multi-exec: a MULTI or WATCH sent alone
// would leave state on a connection that other requests share.
const TRANSACTION = new Set(["MULTI", "EXEC", "DISCARD", "WATCH", "UNWATCH"]);

// Pub/sub listening is only available as Server-Sent Events on /subscribe and /psubscribe.
const SUBSCRIBE = new Set([
  "SUBSCRIBE",
  "PSUBSCRIBE",
  "SSUBSCRIBE",
  "UNSUBSCRIBE",
  "PUNSUBSCRIBE",
  "SUNSUBSCRIBE",
]);

// Commands that change or hijack the state of the shared connection, or take over the server.
const CONNECTION = new Set([
  "MONITOR",
  "SYNC",
  "PSYNC",
  "REPLCONF",
  "REPLICAOF",
  "SLAVEOF",
  "FAILOVER",
  "SHUTDOWN",
  "DEBUG",
  "SELECT",
  "AUTH",
  "HELLO",
  "RESET",
  "QUIT",
  "READONLY",
  "READWRITE",
]);

// CLIENT subcommands that would change the shared connection's behaviour for every request.
const CLIENT_SUBCOMMANDS = new Set([
  "REPLY",
  "TRACKING",
  "CACHING",
  "PAUSE",
  "UNPAUSE",
  "KILL",
  "NO-EVICT",
  "NO-TOUCH",
]);

/**
 * Why a command may not run over REST, or `undefined` when it may. Refusing here what Upstash
 * refuses means nothing works against this server that would fail against Upstash.
 */
export function refusalOf(args: CommandArgs): string | undefined {
  const name = (args[0] ?? "").toUpperCase();
  const display = name.toLowerCase();
  if (BLOCKING.has(name) || isBlockingStreamRead(name, args)) {
    return `ERR blocking command '${display}' is not supported over the REST API`;
  }
  if (TRANSACTION.has(name)) {
    return `ERR '${display}' is not supported over the REST API: send the whole transaction to /multi-exec`;
  }
  if (SUBSCRIBE.has(name)) {
    return `ERR '${display}' is not supported on this endpoint: use /subscribe/<channel> or /psubscribe/<pattern>`;
  }
  if (CONNECTION.has(name)) return `ERR '${display}' is not supported over the REST API`;
  if (name === "CLIENT" && CLIENT_SUBCOMMANDS.has((args[1] ?? "").toUpperCase())) {
    return `ERR 'client ${(args[1] ?? "").toLowerCase()}' is not supported over the REST API`;
  }
  return undefined;
}

// XREAD and XREADGROUP block only with a BLOCK option, which must come before STREAMS.
function isBlockingStreamRead(name: string, args: CommandArgs): boolean {
  if (name !== "XREAD" && name !== "XREADGROUP") return false;
  for (const arg of args.slice(1)) {
    const upper = arg.toUpperCase();
    if (upper === "STREAMS") return false;
    if (upper === "BLOCK") return true;
  }
  return false;
}
