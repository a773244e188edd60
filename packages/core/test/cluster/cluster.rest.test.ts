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
import { runBackendConformance } from "../conformance/backend.conformance.ts";
import { runFairLockConformance } from "../conformance/fair-lock.conformance.ts";
import { runInspectConformance } from "../conformance/inspect.conformance.ts";
import { runLatchConformance } from "../conformance/latch.conformance.ts";
import { runLockConformance } from "../conformance/lock.conformance.ts";
import { runMultiLockConformance } from "../conformance/multi-lock.conformance.ts";
import { runPermitSemaphoreConformance } from "../conformance/permit-semaphore.conformance.ts";
import { runReadWriteLockConformance } from "../conformance/read-write-lock.conformance.ts";
import { runSemaphoreConformance } from "../conformance/semaphore.conformance.ts";
import { declareClusterSkips, declareSlotAudit, SlotErrorTally } from "./cluster-support.ts";
import { runTaggedNamesSuite } from "./tagged-names.ts";

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

runBackendConformance({ name: target.name, makeBackend: () => resolveBackend(connect()) });
runLockConformance(target);
runFairLockConformance(target);
runReadWriteLockConformance(target);
runMultiLockConformance(target);
runSemaphoreConformance(target);
runPermitSemaphoreConformance(target);
runLatchConformance(target);
runInspectConformance(target);
runTaggedNamesSuite(target);
declareClusterSkips();

declareSlotAudit("Redis Cluster, REST", tally, () => cluster, connect);
