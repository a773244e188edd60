import { createServer, connect, type Server, type Socket } from "node:net";
import { DelayPipe } from "./delay-pipe.ts";
import { RespCounter } from "./resp-counter.ts";

export interface Latency {
  /** Round trip added, ms: half on the way in, half on the way out. */
  readonly ms: number;
  /** Up to this much more per round trip, uniformly drawn (half per direction). */
  readonly jitterMs: number;
}

/**
 * A TCP proxy in front of Redis for the TCP peers: it adds the same round trip the rest-server
 * adds to HTTP requests (R/2 each way) and counts the commands clients send, which is what a
 * hosted Redis bills.
 */
export class TcpProxy {
  latency: Latency = { ms: 0, jitterMs: 0 };
  readonly #counters = new Set<RespCounter>();
  #closedCount = 0;
  readonly #sockets = new Set<Socket>();
  #server: Server | undefined;
  port = 0;

  constructor(private readonly target: { host: string; port: number }) {}

  /** Commands sent by every client so far (each connection parses its own stream). */
  get commands(): number {
    let total = this.#closedCount;
    for (const counter of this.#counters) total += counter.count;
    return total;
  }

  async listen(): Promise<number> {
    const server = createServer((client) => this.#pipe(client));
    this.#server = server;
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    this.port = (server.address() as { port: number }).port;
    return this.port;
  }

  async close(): Promise<void> {
    for (const socket of this.#sockets) socket.destroy();
    await new Promise<void>((resolve) => this.#server?.close(() => resolve()) ?? resolve());
  }

  #oneWay = (): number => (this.latency.ms + Math.random() * this.latency.jitterMs) / 2;

  #pipe(client: Socket): void {
    const upstream = connect(this.target.port, this.target.host);
    client.setNoDelay(true);
    upstream.setNoDelay(true);
    this.#sockets.add(client).add(upstream);
    const counter = new RespCounter();
    this.#counters.add(counter);
    const toRedis = new DelayPipe<Buffer>((chunk) => upstream.write(chunk), this.#oneWay);
    const toClient = new DelayPipe<Buffer>((chunk) => client.write(chunk), this.#oneWay);
    client.on("data", (chunk: Buffer) => {
      counter.push(chunk);
      toRedis.push(chunk);
    });
    upstream.on("data", (chunk: Buffer) => toClient.push(chunk));
    const end = () => {
      if (this.#counters.delete(counter)) this.#closedCount += counter.count;
      toRedis.close();
      toClient.close();
      client.destroy();
      upstream.destroy();
      this.#sockets.delete(client);
      this.#sockets.delete(upstream);
    };
    client.on("close", end).on("error", end);
    upstream.on("close", end).on("error", end);
  }
}
