import { Redis } from "@upstash/redis";
import {
  closeAll,
  startCluster,
  startRestFront,
  type RedisClusterProcess,
  type RestFront,
} from "@edgelock/testkit";
import { afterAll, beforeAll } from "vitest";
import { resolveBackend } from "../../src/index.ts";
import { runSuites } from "../conformance/suites.ts";
import { declareSlotAudit, SlotErrorTally } from "./cluster-support.ts";

// Every conformance suite on a real 3-master Redis Cluster over REST: @upstash/redis to a
// rest-server fronting the cluster (its cluster client routes each command by key and follows
// MOVED and ASK). One cluster and one rest-server for the whole file.

let cluster: RedisClusterProcess;
let rest: RestFront;
const tally = new SlotErrorTally();

beforeAll(async () => {
  cluster = await startCluster({ masters: 3 });
  rest = await startRestFront(cluster.urls[0]!, { cluster: true });
});
afterAll(async () => {
  await closeAll();
  await rest?.close();
  await cluster?.close();
});

const connect = () => new Redis({ url: rest.url, token: rest.token });
const target = {
  name: "Redis Cluster, REST (@upstash/redis → rest-server → cluster)",
  makeRedis: () => tally.wrap(connect()),
};

// Every row of the suite table (conformance/suites.ts): its skips name why a suite does not run here.
await runSuites("cluster-rest", "conformance", {
  ...target,
  makeBackend: () => resolveBackend(connect()),
});
await runSuites("cluster-rest", "regressions", target);
await runSuites("cluster-rest", "quorum", target);

declareSlotAudit("Redis Cluster, REST", tally, () => cluster, connect);
