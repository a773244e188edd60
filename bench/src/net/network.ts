import { fork, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import { startRedis, type RedisProcess } from "@edgelock/testkit";
import type { Counters, NetworkReply, NetworkRequest } from "./protocol.ts";

type Pending = (reply: NetworkReply) => void;
type Request = NetworkRequest extends infer R
  ? R extends NetworkRequest
    ? Omit<R, "id">
    : never
  : never;

/** Redis, and the network process in front of it: where every library in the bench connects. */
export interface Network {
  readonly redis: RedisProcess;
  readonly rest: { readonly url: string; readonly token: string };
  /** `redis://` URL of the TCP proxy (latency-injected, command-counting). */
  readonly proxyUrl: string;
  setLatency(ms: number, jitterMs?: number): Promise<void>;
  counters(): Promise<Counters>;
  close(): Promise<void>;
}

export async function startNetwork(): Promise<Network> {
  const redis = await startRedis();
  const token = randomBytes(16).toString("hex");
  const entry = fileURLToPath(new URL("./network-process.ts", import.meta.url));
  const child = fork(entry, [redis.url, token], {
    execArgv: ["--import", "tsx"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const pending = new Map<number, Pending>();
  let nextId = 1;
  const ready = await new Promise<Extract<NetworkReply, { type: "ready" }>>((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`network process exited with ${code}`)));
    child.on("message", (reply: NetworkReply) => {
      if (reply.type === "ready") resolve(reply);
      else pending.get(reply.id)?.(reply);
    });
  });
  const call = (request: Request) =>
    new Promise<NetworkReply>((resolve, reject) => {
      const id = nextId++;
      pending.set(id, (reply) => {
        pending.delete(id);
        if (reply.type === "error") reject(new Error(reply.message));
        else resolve(reply);
      });
      child.send({ ...request, id });
    });
  return {
    redis,
    rest: { url: ready.restUrl, token },
    proxyUrl: `redis://127.0.0.1:${ready.proxyPort}`,
    async setLatency(ms, jitterMs = 0) {
      await call({ type: "latency", ms, jitterMs });
    },
    async counters() {
      const reply = await call({ type: "counters" });
      if (reply.type !== "counters") throw new Error(`unexpected reply ${reply.type}`);
      return reply;
    },
    async close() {
      // The redis-server child is unref'd by the testkit: hold the event loop open while it stops,
      // or a script awaiting this at top level ends with "unsettled top-level await".
      const keepAlive = setInterval(() => undefined, 1_000);
      try {
        // The child may exit before its answer crosses the channel: wait for the exit, not the answer.
        call({ type: "close" }).catch(() => undefined);
        await exited(child);
        await redis.stop();
      } finally {
        clearInterval(keepAlive);
      }
    },
  };
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill("SIGKILL"), 3_000);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
  });
}
