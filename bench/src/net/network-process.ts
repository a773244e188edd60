/**
 * The bench's "network": the rest-server (HTTP libraries) and the TCP proxy (TCP libraries) in a
 * process of their own, so the workers' CPU use does not slow the server's event loop and the
 * injected latency stays what it says. Driven over IPC by `network.ts`.
 */
import { startRestServer } from "@edgelock/rest-server";
import { TcpProxy } from "./tcp-proxy.ts";
import type { NetworkReply, NetworkRequest } from "./protocol.ts";

const [redisUrl = "", token = ""] = process.argv.slice(2);
const send = (message: NetworkReply) => process.send?.(message);

const rest = await startRestServer({ redisUrl, token, enableFaults: true });
const redisPort = Number(new URL(redisUrl).port);
const proxy = new TcpProxy({ host: "127.0.0.1", port: redisPort });
await proxy.listen();
send({ type: "ready", restUrl: rest.url, proxyPort: proxy.port });

process.on("message", (request: NetworkRequest) => {
  void handle(request).then(send, (error: unknown) =>
    send({ type: "error", id: request.id, message: String(error) }),
  );
});

async function handle(request: NetworkRequest): Promise<NetworkReply> {
  switch (request.type) {
    case "latency": {
      rest.rest.faults.clear();
      if (request.ms > 0 || request.jitterMs > 0)
        await rest.rest.faults.add({ kind: "latency", ms: request.ms, jitterMs: request.jitterMs });
      proxy.latency = { ms: request.ms, jitterMs: request.jitterMs };
      return { type: "ok", id: request.id };
    }
    case "counters": {
      const stats = rest.rest.stats();
      return {
        type: "counters",
        id: request.id,
        http: stats.httpRequests,
        restCommands: stats.redisCommands,
        commands: stats.commands,
        wire: proxy.commands,
      };
    }
    case "close": {
      await proxy.close();
      await rest.close();
      setImmediate(() => process.exit(0));
      return { type: "ok", id: request.id };
    }
  }
}
