import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";

/** A command's result; `run` throws a `StepError` with the tail of its output when it fails. */
export interface RunResult {
  readonly output: string;
}

export class StepError extends Error {}

/** Runs a command to its end, capturing stdout and stderr together. */
export function run(
  command: string,
  args: readonly string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs?: number },
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ["ignore", "pipe", "pipe"],
      detached: true, // its own process group, so a timeout kills its children too
    });
    let output = "";
    child.stdout.on("data", (d: Buffer) => (output += d.toString()));
    child.stderr.on("data", (d: Buffer) => (output += d.toString()));
    commands.add(child);
    child.once("exit", () => commands.delete(child));
    const timer = setTimeout(() => killGroup(child), options.timeoutMs ?? 300_000);
    child.once("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once("close", (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve({ output });
      else
        reject(
          new StepError(
            `${command} ${args.join(" ")} (in ${options.cwd}) exited with ${code ?? signal}:\n${tail(output)}`,
          ),
        );
    });
  });
}

/** A long-running process (a server), stopped with `stop()`: its whole process group. */
export interface Background {
  readonly child: ChildProcess;
  output(): string;
  stop(): Promise<void>;
}

/** Every background process still running, so an interrupted check can stop them all. */
export const running = new Set<Background>();
const commands = new Set<ChildProcess>();

/** Kills every command and server still running, each with its process group, at once. */
export function killAll(): void {
  for (const child of commands) killGroup(child);
  for (const background of running) killGroup(background.child);
}

export function startBackground(
  command: string,
  args: readonly string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv },
): Background {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env ?? process.env,
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let output = "";
  child.stdout!.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (output += d.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const background: Background = {
    child,
    output: () => output,
    stop: async () => {
      running.delete(background);
      if (child.exitCode !== null || child.signalCode !== null) return;
      killGroup(child, "SIGTERM");
      const hard = setTimeout(() => killGroup(child, "SIGKILL"), 5_000);
      await exited;
      clearTimeout(hard);
    },
  };
  running.add(background);
  return background;
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals = "SIGKILL"): void {
  try {
    if (child.pid !== undefined) process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}

/** Polls until `server`'s output matches `ready`, or fails after `timeoutMs`. */
export async function waitForOutput(
  server: Background,
  ready: RegExp,
  timeoutMs = 30_000,
): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!ready.test(server.output())) {
    if (server.child.exitCode !== null || Date.now() > until)
      throw new StepError(`not ready (${ready}):\n${tail(server.output())}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Polls `url` until it answers (any HTTP status), or fails after `timeoutMs`. */
export async function waitForHttp(
  url: string,
  server: Background,
  timeoutMs = 60_000,
): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    if (server.child.exitCode !== null)
      throw new StepError(`the server for ${url} exited:\n${tail(server.output())}`);
    try {
      await fetch(url, { signal: AbortSignal.timeout(2_000) });
      return;
    } catch {
      if (Date.now() > until)
        throw new StepError(
          `${url} did not answer within ${timeoutMs} ms:\n${tail(server.output())}`,
        );
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}

/** A TCP port that was free a moment ago. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export function tail(text: string, lines = 40): string {
  return text.trimEnd().split("\n").slice(-lines).join("\n");
}
