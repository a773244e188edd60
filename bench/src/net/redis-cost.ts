import { readFileSync } from "node:fs";
import { createClient } from "redis";

/**
 * What a stretch of work cost Redis itself, read from Redis: every command it executed (scripts
 * and the commands they ran, from `INFO commandstats`), the µs it spent in them, and the CPU time
 * of the redis-server process (`INFO cpu`, user + system: what bounds throughput on a
 * self-hosted Redis, network I/O included).
 */
export interface RedisCost {
  /** Commands executed, those run inside scripts included (what Redis counts). */
  readonly calls: number;
  /** µs Redis spent running scripts (EVAL, EVALSHA, FCALL): each covers what it ran inside. */
  readonly scriptUsec: number;
  /**
   * µs in every other command, those run inside scripts included (`commandstats` also counts
   * each script's commands on their own, so these overlap `scriptUsec` for scripted libraries).
   */
  readonly otherUsec: number;
  /** CPU µs of the redis-server process (user + system). */
  readonly cpuUsec: number;
}

export const NO_COST: RedisCost = { calls: 0, scriptUsec: 0, otherUsec: 0, cpuUsec: 0 };

const SCRIPT_COMMANDS = /^(eval|evalsha|eval_ro|evalsha_ro|fcall|fcall_ro)$/;

/**
 * A meter over the Redis at `url`: `start()` snapshots its statistics, `stop()` answers the
 * difference. Differences rather than `CONFIG RESETSTAT`, so that whoever else counts on the same
 * Redis (the counters test) keeps its own totals.
 */
export async function redisCostMeter(url: string) {
  const admin = createClient({ url });
  await admin.connect();
  const snapshot = async (): Promise<RedisCost> => {
    const cpu = String(await admin.sendCommand(["INFO", "cpu"]));
    const field = (name: string) => Number(new RegExp(`^${name}:([\\d.]+)`, "m").exec(cpu)?.[1]);
    const info = String(await admin.sendCommand(["INFO", "commandstats"]));
    let calls = 0;
    let scriptUsec = 0;
    let otherUsec = 0;
    for (const m of info.matchAll(/^cmdstat_([^:]+):calls=(\d+),usec=(\d+)/gm)) {
      const name = m[1]!;
      // The meter's own INFO (and anyone's CONFIG) is not the library's.
      if (/^(info|config)/.test(name)) continue;
      calls += Number(m[2]);
      if (SCRIPT_COMMANDS.test(name)) scriptUsec += Number(m[3]);
      else otherUsec += Number(m[3]);
    }
    const cpuUsec = Math.round((field("used_cpu_user") + field("used_cpu_sys")) * 1e6);
    return { calls, scriptUsec, otherUsec, cpuUsec };
  };
  let atStart = NO_COST;
  return {
    async start(): Promise<void> {
      atStart = await snapshot();
    },
    async stop(): Promise<RedisCost> {
      const now = await snapshot();
      return {
        calls: now.calls - atStart.calls,
        scriptUsec: now.scriptUsec - atStart.scriptUsec,
        otherUsec: now.otherUsec - atStart.otherUsec,
        cpuUsec: now.cpuUsec - atStart.cpuUsec,
      };
    },
    /** redis-server's process id, for sampling its CPU from /proc while the meter is busy. */
    async pid(): Promise<number> {
      const info = String(await admin.sendCommand(["INFO", "server"]));
      return Number(/^process_id:(\d+)/m.exec(info)?.[1]);
    },
    close: () => admin.quit().then(() => undefined),
  };
}

export type RedisCostMeter = Awaited<ReturnType<typeof redisCostMeter>>;

/** CPU time of process `pid` so far, in seconds (utime + stime from /proc/<pid>/stat). */
export function processCpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // Fields after the command name (which may hold spaces) start at state; utime, stime are 14, 15.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ticks = Number(fields[11]) + Number(fields[12]);
  return ticks / 100; // USER_HZ is 100 on Linux
}
