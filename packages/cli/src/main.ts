import { createClient, inspect, LockError } from "@edgelock/core";
import { parseCommand } from "./args.ts";
import { CliError, type ExitCode } from "./cli-error.ts";
import { inspectCommand } from "./commands/inspect.ts";
import { unlockCommand } from "./commands/unlock.ts";
import { restFromEnv } from "./env.ts";
import { HELP } from "./help.ts";

export interface CliIo {
  readonly env: Readonly<Record<string, string | undefined>>;
  out(text: string): void;
  err(text: string): void;
}

export const VERSION = "0.1.0";

/** Runs one command line; returns the exit code. Errors become one clear line on stderr. */
export async function main(argv: readonly string[], io: CliIo): Promise<ExitCode> {
  try {
    const cmd = parseCommand(argv);
    if (cmd.command === "help") return (io.out(HELP), 0);
    if (cmd.command === "version") return (io.out(VERSION), 0);
    const client = createClient({
      redis: restFromEnv(io.env),
      ...(cmd.flags.prefix === undefined ? {} : { prefix: cmd.flags.prefix }),
    });
    const inspector = inspect(client);
    io.out(
      cmd.command === "inspect"
        ? await inspectCommand(inspector, cmd.name, cmd.flags)
        : await unlockCommand(inspector, cmd.name, cmd.flags),
    );
    return 0;
  } catch (error) {
    const { message, code } = explain(error);
    io.err(`edgelock: ${message}`);
    return code;
  }
}

function explain(error: unknown): { message: string; code: ExitCode } {
  if (error instanceof CliError) return { message: error.message, code: error.exitCode };
  if (error instanceof LockError && error.code === "INVALID_ARGUMENT")
    return { message: error.message.replace(/^options\./, "--"), code: 2 };
  if (error instanceof LockError && error.code === "BACKEND") {
    const status = (error as { status?: number }).status;
    if (status === 401 || status === 403)
      return { message: `the database refused UPSTASH_REDIS_REST_TOKEN (HTTP ${status})`, code: 1 };
    return {
      message: `the database failed: ${error.message} (check UPSTASH_REDIS_REST_URL)`,
      code: 1,
    };
  }
  if (error instanceof LockError) return { message: error.message, code: 1 };
  return { message: error instanceof Error ? error.message : String(error), code: 1 };
}
