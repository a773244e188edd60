import { spawn, type ChildProcess } from "node:child_process";
import { createServer, Socket } from "node:net";

/** A redis-server of this test file's own, on a free port, with no persistence. */
export interface RedisProcess {
  readonly url: string;
  readonly port: number;
  /** Kills redis-server (data is lost) and starts a new one on the same port. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/** A port nothing listens on right now (the OS picks it for a moment, then frees it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export async function startRedis(): Promise<RedisProcess> {
  const port = await freePort();
  let running = await spawnRedis(port);
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    restart: async () => {
      await running.kill();
      running = await spawnRedis(port);
    },
    stop: () => running.kill(),
  };
}

// Children still running when the test process exits (a failed afterAll, a crash) would be
// orphaned: kill them synchronously on the way out.
const running = new Set<ChildProcess>();
process.once("exit", () => {
  for (const child of running) child.kill("SIGKILL");
});

async function spawnRedis(port: number): Promise<{ kill(): Promise<void> }> {
  const args = ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"];
  const child = spawn("redis-server", args, { stdio: "ignore" });
  running.add(child);
  const exited = new Promise<void>((resolve) =>
    child.once("exit", () => {
      running.delete(child);
      resolve();
    }),
  );
  const kill = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    await exited;
  };
  try {
    await waitForPong(port, child);
  } catch (error) {
    await kill();
    throw error;
  }
  return { kill };
}

async function waitForPong(port: number, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`redis-server exited with code ${child.exitCode}`);
    if (await ping(port)) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`redis-server on port ${port} did not answer PING within 10 s`);
}

function ping(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.once("error", () => done(false));
    socket.connect(port, "127.0.0.1", () => socket.write("PING\r\n"));
    socket.once("data", (data) => done(data.toString().startsWith("+PONG")));
  });
}
