import {
  BACKENDS,
  closeAll,
  startRedis,
  type NodeRedisClient,
  type RedisProcess,
} from "@edgelock/testkit";
import { afterAll, beforeAll } from "vitest";
import { runSuites } from "./conformance/suites.ts";
import { rawClients, serverDatabases } from "./quorum-support.ts";

// The `quorum` rows of the suite table over five independent redis-server processes, each
// reached over TCP by its own node-redis client.
let nodes: RedisProcess[] = [];
let raws: NodeRedisClient[] = [];

beforeAll(async () => {
  nodes = await Promise.all(Array.from({ length: 5 }, () => startRedis()));
  raws = await rawClients(nodes);
});
afterAll(async () => {
  await closeAll();
  await Promise.all(nodes.map((n) => n.stop()));
});

const name = `${BACKENDS.find((b) => b.name === "tcp")!.label}, 5 redis-servers`;
await runSuites("tcp", "quorum", {
  name,
  makeRedis: () => raws[0]!,
  quorum: serverDatabases({
    name,
    requestTimeoutMs: 300,
    servers: () => ({ nodes, raws }),
    connect: (i) => raws[i]!,
  }),
});
