import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  closeSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const run = promisify(execFile);
const SOURCE = join(dirname(fileURLToPath(import.meta.url)), "clock-offset.c");

/**
 * A server clock the adversary can step: start the world's redis-server with `env` (an
 * `LD_PRELOAD` shim, see clock-offset.c), then `stepServerClock(ms)` moves its wall clock by `ms`
 * (negative: back) at once, for every later `TIME`, key expiry and log line. The monotonic clock
 * is not moved, as with a real NTP step. A restart of the server keeps the offset (same env).
 */
export interface ServerClock {
  /** Environment for the redis-server process (`startRedis({ env })`, `startStack({ env })`). */
  readonly env: Readonly<Record<string, string>>;
  /** The total step so far (ms). */
  readonly offsetMs: number;
  /** Moves the server's wall clock by `ms` (may be negative) from where it is now. */
  stepServerClock(ms: number): void;
  /** Back to the real time. */
  resetServerClock(): void;
  /** Removes the offset file (the server must be stopped first, or it keeps reading 0). */
  close(): void;
}

export async function serverClock(): Promise<ServerClock> {
  const library = await compiledShim();
  const dir = mkdtempSync(join(tmpdir(), "edgelock-server-clock-"));
  const file = join(dir, "offset");
  // Written once at its full size and then only overwritten in place: the server maps it, and a
  // truncation (writeFileSync) would make its next clock read fault.
  const fd = openSync(file, "w+");
  let offsetMs = 0;
  const write = (ms: number) => {
    if (!Number.isSafeInteger(ms))
      throw new RangeError(`server clock offset must be an integer of ms, got ${ms}`);
    const bytes = Buffer.alloc(8);
    bytes.writeBigInt64LE(BigInt(ms));
    writeSync(fd, bytes, 0, 8, 0);
    offsetMs = ms;
  };
  write(0);
  let closed = false;
  return {
    env: { LD_PRELOAD: library, EDGELOCK_CLOCK_OFFSET_FILE: file },
    get offsetMs() {
      return offsetMs;
    },
    stepServerClock: (ms) => write(offsetMs + ms),
    resetServerClock: () => write(0),
    close() {
      if (closed) return;
      closed = true;
      closeSync(fd);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The shim built once per source version (gcc), cached in the temp dir across runs. */
async function compiledShim(): Promise<string> {
  const source = readFileSync(SOURCE);
  const hash = createHash("sha1").update(source).digest("hex").slice(0, 12);
  const cache = join(tmpdir(), "edgelock-clock-shim");
  const library = join(cache, `clock-offset-${hash}.so`);
  if (existsSync(library)) return library;
  mkdirSync(cache, { recursive: true });
  // Built under a private name, then renamed: two runs building at once never load half a file.
  const partial = `${library}.${process.pid}.tmp`;
  try {
    await run("cc", ["-shared", "-fPIC", "-O2", "-Wall", "-o", partial, SOURCE]);
  } catch (error) {
    throw new Error(
      `could not build the server-clock shim (needs a C compiler, cc): ${String(error)}`,
      { cause: error },
    );
  }
  renameSync(partial, library);
  return library;
}
