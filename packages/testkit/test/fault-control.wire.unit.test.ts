import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FaultControl, FaultControlError } from "../src/index.ts";

// The wire format of FaultControl, against a recording HTTP server (no rest-server needed).
interface Seen {
  method: string;
  url: string;
  auth: string | undefined;
  body: string;
}
const seen: Seen[] = [];
let server: Server;
let url: string;

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      seen.push({
        method: req.method ?? "",
        url: req.url ?? "",
        auth: req.headers.authorization,
        body,
      });
      if (req.headers.authorization !== "Bearer secret")
        return void res.writeHead(401).end("unauthorized");
      if (req.url === "/__edgelock/stats")
        return void res.end(
          JSON.stringify({ httpRequests: 3, redisCommands: 4, commands: { ping: 3 } }),
        );
      if (req.method === "GET") return void res.end(JSON.stringify([{ kind: "hang" }]));
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("FaultControl wire format", () => {
  it("calls each control endpoint with the bearer token", async () => {
    const faults = new FaultControl(url, "secret");
    await faults.add({ kind: "fail-before", times: 2, match: "PING" });
    await faults.add([{ kind: "latency", ms: 10 }, { kind: "flush-scripts" }]);
    expect(await faults.list()).toEqual([{ kind: "hang" }]);
    await faults.clear();
    expect(await faults.stats()).toEqual({
      httpRequests: 3,
      redisCommands: 4,
      commands: { ping: 3 },
    });
    await faults.resetStats();
    await faults.flushScripts();
    expect(seen.map((s) => `${s.method} ${s.url}`)).toEqual([
      "POST /__edgelock/faults",
      "POST /__edgelock/faults",
      "GET /__edgelock/faults",
      "DELETE /__edgelock/faults",
      "GET /__edgelock/stats",
      "POST /__edgelock/stats/reset",
      "POST /__edgelock/flush-scripts",
    ]);
    expect(seen.every((s) => s.auth === "Bearer secret")).toBe(true);
    expect(JSON.parse(seen[0]!.body)).toEqual({ kind: "fail-before", times: 2, match: "PING" });
    expect(JSON.parse(seen[1]!.body)).toEqual([
      { kind: "latency", ms: 10 },
      { kind: "flush-scripts" },
    ]);
  });

  it("throws FaultControlError with the status and body on a non-2xx answer", async () => {
    const error = await new FaultControl(url, "wrong").clear().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FaultControlError);
    expect(error).toMatchObject({ status: 401, body: "unauthorized", code: "fault-control" });
  });
});
