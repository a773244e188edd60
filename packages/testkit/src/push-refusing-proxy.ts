import { createServer, request, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** How the proxy answers `/subscribe` and `/psubscribe`. */
export type SubscribeAnswer =
  /** Refuses with this HTTP status (404, 405, 400, …), as a bridge without push does. */
  | number
  /** Answers 200 with a JSON body: a proxy that takes the path for a command. */
  | "json"
  /** Forwards to the rest-server: push works. */
  | "forward";

/**
 * An HTTP proxy in front of a rest-server that forwards commands and answers push streams as
 * told: a backend without `/subscribe`, on real HTTP. It counts the stream requests it refused.
 */
export interface PushRefusingProxy {
  /** `http://127.0.0.1:PORT` */
  readonly url: string;
  /** How `/subscribe` is answered from now on. */
  answer: SubscribeAnswer;
  /** Stream requests answered without forwarding (refused or JSON). */
  readonly refused: number;
  /** Stream requests forwarded to the rest-server. */
  readonly forwarded: number;
  /** Command requests forwarded. */
  readonly commands: number;
  close(): Promise<void>;
}

export interface PushRefusingProxyOptions {
  /** How long a stream request waits for its refusal, ms (a round trip, for a benchmark). @default 0 */
  readonly refusalDelayMs?: () => number;
}

export async function startPushRefusingProxy(
  upstreamUrl: string,
  answer: SubscribeAnswer = 404,
  options: PushRefusingProxyOptions = {},
): Promise<PushRefusingProxy> {
  const upstream = new URL(upstreamUrl);
  const counts = { refused: 0, forwarded: 0, commands: 0 };
  const state = { answer };
  const server = createServer((req, res) => {
    const stream = /^\/p?subscribe\//.test(req.url ?? "");
    if (stream && state.answer !== "forward") {
      counts.refused++;
      req.resume();
      const refusal = state.answer;
      const reply = () => {
        if (refusal === "json") {
          res.writeHead(200, { "content-type": "application/json" });
          res.end(JSON.stringify({ result: "OK" }));
        } else {
          res.writeHead(refusal, { "content-type": "text/plain" });
          res.end("Not Found");
        }
      };
      const delay = options.refusalDelayMs?.() ?? 0;
      if (delay > 0) setTimeout(reply, delay);
      else reply();
      return;
    }
    if (stream) counts.forwarded++;
    else counts.commands++;
    forward(upstream, req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get answer() {
      return state.answer;
    },
    set answer(next) {
      state.answer = next;
    },
    get refused() {
      return counts.refused;
    },
    get forwarded() {
      return counts.forwarded;
    },
    get commands() {
      return counts.commands;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function forward(upstream: URL, req: IncomingMessage, res: ServerResponse): void {
  const out = request(
    {
      host: upstream.hostname,
      port: upstream.port,
      method: req.method,
      path: req.url,
      headers: { ...req.headers, host: upstream.host },
    },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  out.on("error", () => {
    if (!res.headersSent) res.writeHead(502);
    res.end();
  });
  // A client that goes away (an aborted stream) closes the upstream request too.
  res.on("close", () => out.destroy());
  req.pipe(out);
}
