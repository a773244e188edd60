import { spawn, type ChildProcess } from "node:child_process";
import { rmSync } from "node:fs";

/**
 * Every redis-server this process spawned and has not seen exit, with the temp dirs to remove.
 * Three layers keep a failed run from leaving orphans:
 * - `exit`, `SIGINT`, `SIGTERM` and `SIGHUP` handlers SIGKILL every live server synchronously;
 * - a watchdog (`sh`, reading a pipe from this process) SIGKILLs its server and removes its dir
 *   when this process dies in a way no handler sees (SIGKILL, OOM): the pipe closes, `read` returns;
 * - the global setup's teardown stops what it started in the ordinary case.
 */
const live = new Map<ChildProcess, ChildProcess>();
const dirs = new Set<string>();
let installed = false;

/** Tracks a spawned server (whose data lives in `dir`) until it exits. */
export function trackProcess(child: ChildProcess, dir: string): void {
  installHandlers();
  if (child.pid === undefined) return;
  const watchdog = spawnWatchdog(child.pid, dir);
  live.set(child, watchdog);
  child.once("exit", () => {
    live.delete(child);
    watchdog.kill("SIGKILL");
  });
}

export function trackDir(dir: string): void {
  installHandlers();
  dirs.add(dir);
}

export function removeDir(dir: string): void {
  dirs.delete(dir);
  rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
}

/** SIGKILLs every tracked server and removes every tracked dir, synchronously. */
export function killAllNow(): void {
  for (const [child, watchdog] of live) {
    child.kill("SIGKILL");
    watchdog.kill("SIGKILL");
  }
  live.clear();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
  dirs.clear();
}

/** How many spawned servers are still running (for tests of the registry itself). */
export function liveProcessCount(): number {
  return live.size;
}

function spawnWatchdog(pid: number, dir: string): ChildProcess {
  const script = 'read _ignored; kill -9 "$1" 2>/dev/null; [ -n "$2" ] && rm -rf -- "$2"';
  const watchdog = spawn("sh", ["-c", script, "edgelock-watchdog", String(pid), dir], {
    stdio: ["pipe", "ignore", "ignore"],
  });
  watchdog.on("error", () => undefined);
  watchdog.stdin?.on("error", () => undefined);
  watchdog.unref();
  (watchdog.stdin as unknown as { unref?: () => void } | null)?.unref?.();
  return watchdog;
}

function installHandlers(): void {
  if (installed) return;
  installed = true;
  process.once("exit", killAllNow);
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    process.once(signal, () => {
      killAllNow();
      // Without other listeners, re-raise so the default action (terminate) still happens.
      if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
    });
  }
}
