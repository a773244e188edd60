import { Redis } from "@upstash/redis";
import {
  BACKENDS,
  closeAll,
  makeNodeRedis,
  startStack,
  type NodeRedisClient,
  type Stack,
} from "@edgelock/testkit";
import { afterAll, beforeAll } from "vitest";
import { runSuites } from "./conformance/suites.ts";
import { serverDatabases } from "./quorum-support.ts";

// The `quorum` rows of the suite table over five redis-server processes, each behind its own
// rest-server, reached by @upstash/redis.
let stacks: Stack[] = [];
let raws: NodeRedisClient[] = [];

beforeAll(async () => {
  stacks = await Promise.all(Array.from({ length: 5 }, () => startStack()));
  raws = await Promise.all(stacks.map((s) => makeNodeRedis(s.redis.url)));
});
afterAll(async () => {
  await closeAll();
  await Promise.all(stacks.map((s) => s.close()));
});

const connect = (i: number) =>
  new Redis({ url: stacks[i]!.rest.url, token: stacks[i]!.rest.token });
const name = `${BACKENDS.find((b) => b.name === "rest")!.label}, 5 rest-servers`;
await runSuites("rest", "quorum", {
  name,
  makeRedis: () => connect(0),
  quorum: serverDatabases({
    name,
    requestTimeoutMs: 1_000,
    servers: () => ({ nodes: stacks.map((s) => s.redis), raws }),
    connect,
    onRevive: async () => void (await Promise.all(stacks.map((s) => s.faults.clear()))),
  }),
});
