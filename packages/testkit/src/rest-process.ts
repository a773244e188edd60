import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { randomToken } from "./random-token.ts";
import { trackProcess } from "./redis/process-registry.ts";
import type { RestFront } from "./rest-front.ts";

const START_TIMEOUT_MS = 10_000;

/**
 * The built rest-server CLI (`@edgelock/rest-server`'s `dist/cli.js`). The package's entry point
 * is its source in the monorepo (`src/index.ts`); its `dist` sits beside `src`.
 */
function restServerCli(): string {
  const entry = createRequire(import.meta.url).resolve("@edgelock/rest-server");
  const cli = join(dirname(entry), "..", "dist", "cli.js");
  if (!existsSync(cli))
    throw new Error(`the rest-server is not built (${cli} is missing): run pnpm build first`);
  return cli;
}

/**
 * `startRestFront` in a process of its own: the server's work (HTTP, parsing, its Redis
 * connection) runs on another core than the test's. For tests that load one process with many
 * clients at once (the adversary campaign's pools), where an in-process server halves what the
 * clients get of the one JavaScript thread. Killed with the test process (the Redis registry's
 * handlers and watchdog).
 */
export async function startRestFrontProcess(redisUrl: string): Promise<RestFront> {
  const token = randomToken();
  const child = spawn(
    process.execPath,
    [restServerCli(), "--redis-url", redisUrl, "--port", "0", "--enable-faults"],
    // The token through the environment, never on a command line other processes can read.
    { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, EDGELOCK_REST_TOKEN: token } },
  );
  trackProcess(child, "");
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  let output = "";
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => fail("did not start in time"), START_TIMEOUT_MS);
    function fail(why: string) {
      clearTimeout(timer);
      child.kill("SIGKILL");
      reject(new Error(`rest-server process ${why}: ${output.trim()}`));
    }
    const onExit = (code: number | null) => fail(`exited with ${code}`);
    child.once("exit", onExit);
    child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match === null) return;
      clearTimeout(timer);
      child.off("exit", onExit);
      resolve(match[1]!);
    });
  });
  child.stdout!.resume();
  child.stderr!.resume();
  return {
    url,
    token,
    // SIGKILL: a test server has nothing to flush, and it ends at once.
    close: async () => {
      child.kill("SIGKILL");
      await exited;
    },
  };
}
