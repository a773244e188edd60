import { spawn } from "node:child_process";

/** A stretch of work's Redis commands: script calls, the operation protocol's, the body's own. */
export interface Attribution {
  /** EVALSHA/EVAL sent by clients: one per script run. */
  readonly calls: number;
  /** Server TIME, the operation record's GET and SET, the quarantine sentinel's GET and SET. */
  readonly protocol: number;
  /** Every other command a script ran: the primitive's own logic. */
  readonly own: number;
}

const delay = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Runs `work` under Redis MONITOR (which shows each command a script runs, with its keys) and
 * attributes every command: a script call, the protocol's (by command and key: `…:op:…`,
 * `…:sentinel…`), or the body's own. For measurement only: MONITOR slows Redis down.
 */
export async function attributed(
  redisUrl: string,
  work: () => Promise<void>,
): Promise<Attribution> {
  const url = new URL(redisUrl);
  const monitor = spawn("redis-cli", ["-h", url.hostname, "-p", url.port, "MONITOR"]);
  let text = "";
  monitor.stdout.setEncoding("utf8");
  monitor.stdout.on("data", (chunk: string) => (text += chunk));
  for (let i = 0; i < 500 && !text.startsWith("OK"); i++) await delay(10);
  await work();
  const marker = `attribution-${Math.random()}`;
  const echo = spawn("redis-cli", ["-h", url.hostname, "-p", url.port, "ECHO", marker]);
  await new Promise((r) => echo.once("exit", r));
  for (let i = 0; i < 500 && !text.includes(marker); i++) await delay(10);
  monitor.kill();
  let calls = 0;
  let protocol = 0;
  let own = 0;
  for (const line of text.split("\n")) {
    const m = /^\d+\.\d+ \[\d+ ([^\]]+)\] "([^"]+)"(?: "([^"]*)")?/.exec(line);
    if (!m) continue;
    const name = m[2]!.toUpperCase();
    if (m[1] !== "lua") {
      if (name === "EVALSHA" || name === "EVAL") calls++;
      continue;
    }
    const protocolKey = /:op:|:sentinel/.test(m[3] ?? "");
    if (name === "TIME" || ((name === "GET" || name === "SET") && protocolKey)) protocol++;
    else own++;
  }
  return { calls, protocol, own };
}
