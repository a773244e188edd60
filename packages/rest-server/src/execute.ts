import { ErrorReply } from "redis";
import { BUFFER_REPLIES } from "./encode.ts";
import type { RestRedisClient } from "./options.ts";
import { isInvalid, type CommandArgs, type ParsedCommand } from "./parse.ts";
import { refusalOf } from "./refused.ts";

/** What one command produced: a reply (still in node-redis form) or an error message. */
export type Outcome = { readonly result: unknown } | { readonly error: string };

/** A transaction Redis (or this server) refused as a whole, before running any of it. */
export interface Discarded {
  readonly discarded: string;
}

/**
 * Redis could not be reached (connection lost, client closed). Not a command error: the request
 * is answered 503 and whether a command ran is unknown, as with any broken connection.
 */
export class RedisUnavailableError extends Error {
  override readonly name = "RedisUnavailableError";
}

export interface ExecuteContext {
  readonly redis: RestRedisClient;
  /** Called once per command actually sent to Redis, with its lowercase name. */
  readonly onCommand: (name: string) => void;
}

/** `POST /` and path style: one command. */
export async function executeSingle(ctx: ExecuteContext, command: ParsedCommand): Promise<Outcome> {
  const rejected = rejectionOf(command);
  if (rejected !== undefined) return { error: rejected };
  return settle(send(ctx, command as CommandArgs));
}

/**
 * `POST /pipeline`: every command is written at once (node-redis pipelines writes made in the
 * same tick) and answered in order, errors inline. Not atomic, like Upstash's.
 */
export async function executePipeline(
  ctx: ExecuteContext,
  commands: readonly ParsedCommand[],
): Promise<Outcome[]> {
  const pending = commands.map((command) => {
    const rejected = rejectionOf(command);
    return rejected !== undefined
      ? Promise.resolve<Outcome>({ error: rejected })
      : settle(send(ctx, command as CommandArgs));
  });
  return Promise.all(pending);
}

/**
 * `POST /multi-exec`: MULTI, the commands and EXEC are queued synchronously under one chain id,
 * so no other request's command can land inside the transaction on the shared connection.
 * A command refused here, or one Redis rejects while queueing (EXECABORT), discards the whole
 * transaction, which Upstash answers with a single error.
 */
export async function executeTransaction(
  ctx: ExecuteContext,
  commands: readonly ParsedCommand[],
): Promise<Outcome[] | Discarded> {
  for (const [index, command] of commands.entries()) {
    const rejected = rejectionOf(command);
    if (rejected !== undefined) {
      return { discarded: `${rejected} (command ${index + 1}); transaction discarded` };
    }
  }
  const chainId = Symbol("multi-exec");
  const raw = (args: readonly string[]) =>
    ctx.redis.sendCommand(args, { ...BUFFER_REPLIES, chainId });
  const multi = raw(["MULTI"]);
  const queued = commands.map((command) => {
    ctx.onCommand((command as CommandArgs)[0]!.toLowerCase());
    return raw(command as CommandArgs);
  });
  const exec = raw(["EXEC"]);
  const [multiDone, execDone, ...queuedDone] = await Promise.allSettled([multi, exec, ...queued]);
  for (const settled of [multiDone, execDone, ...queuedDone]) {
    if (settled?.status === "rejected" && !(settled.reason instanceof ErrorReply)) {
      throw unavailable(settled.reason);
    }
  }
  if (execDone?.status === "rejected") {
    const firstQueueError = queuedDone.findIndex((s) => s.status === "rejected");
    const cause = queuedDone[firstQueueError];
    const detail =
      cause?.status === "rejected"
        ? ` (command ${firstQueueError + 1}: ${(cause.reason as Error).message})`
        : "";
    return { discarded: `${(execDone.reason as Error).message}${detail}` };
  }
  const replies = execDone?.status === "fulfilled" ? execDone.value : null;
  // A null EXEC reply means an aborted WATCH, which cannot happen since WATCH is refused.
  if (!Array.isArray(replies)) return { discarded: "EXECABORT Transaction discarded" };
  return replies.map((reply: unknown) =>
    reply instanceof ErrorReply ? { error: reply.message } : { result: reply },
  );
}

function rejectionOf(command: ParsedCommand): string | undefined {
  return isInvalid(command) ? command.invalid : refusalOf(command);
}

function send(ctx: ExecuteContext, args: CommandArgs): Promise<unknown> {
  ctx.onCommand(args[0]!.toLowerCase());
  return ctx.redis.sendCommand(args, BUFFER_REPLIES);
}

async function settle(pending: Promise<unknown>): Promise<Outcome> {
  try {
    return { result: await pending };
  } catch (error) {
    if (error instanceof ErrorReply) return { error: error.message };
    throw unavailable(error);
  }
}

function unavailable(cause: unknown): RedisUnavailableError {
  const message = cause instanceof Error ? cause.message : String(cause);
  return new RedisUnavailableError(`ERR redis unavailable: ${message}`, { cause });
}
