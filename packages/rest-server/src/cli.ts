#!/usr/bin/env node
import { CliUsageError, parseCli, USAGE } from "./cli-args.ts";
import { redactUrl } from "./connect.ts";
import { startRestServer } from "./start.ts";

// Runs the server until SIGINT/SIGTERM. Never prints the token.
async function main(): Promise<number> {
  let config;
  try {
    config = parseCli(process.argv.slice(2), process.env);
  } catch (error) {
    if (!(error instanceof CliUsageError)) throw error;
    process.stderr.write(`edgelock-rest-server: ${error.message}\nRun with --help for usage.\n`);
    return 2;
  }
  if (config === "help") {
    process.stdout.write(USAGE);
    return 0;
  }
  let server;
  try {
    server = await startRestServer({
      redisUrl: config.redisUrl,
      cluster: config.cluster,
      token: config.token,
      port: config.port,
      host: config.host,
      enableFaults: config.enableFaults,
      ...(config.maxBodyBytes !== undefined && { maxBodyBytes: config.maxBodyBytes }),
      ...(config.verbose && { log: (line: string) => process.stdout.write(`${line}\n`) }),
    });
  } catch (error) {
    process.stderr.write(`edgelock-rest-server: ${(error as Error).message}\n`);
    return 1;
  }
  const faults = config.enableFaults ? " (fault injection enabled)" : "";
  process.stdout.write(
    `edgelock-rest-server listening on ${server.url} -> ${redactUrl(config.redisUrl)}${faults}\n`,
  );
  await new Promise<void>((resolve) => {
    process.once("SIGINT", resolve);
    process.once("SIGTERM", resolve);
  });
  await server.close();
  return 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`edgelock-rest-server: ${(error as Error).stack ?? String(error)}\n`);
    process.exitCode = 1;
  },
);
