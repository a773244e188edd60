import { runSuites } from "../../core/test/conformance/suites.ts";
import { workerdQuorumDatabases } from "./workerd/quorum-databases.ts";
import { WORKERD_TARGET, workerdRedis } from "./workerd/upstash.ts";

// The core's suite table (quorum rows), inside workerd: the QuorumLock's client-side logic
// (parallel fetches, per-request timeouts, validity on the monotonic clock, commit of the fence).
await runSuites("workerd", "quorum", {
  name: WORKERD_TARGET,
  makeRedis: workerdRedis,
  quorum: workerdQuorumDatabases(),
});
