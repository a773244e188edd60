import { runSuites } from "../../core/test/conformance/suites.ts";
import { WORKERD_TARGET, workerdRedis } from "./workerd/upstash.ts";

// The core's suite table (regressions rows), inside workerd: the edge path users run in production.
await runSuites("workerd", "regressions", { name: WORKERD_TARGET, makeRedis: workerdRedis });
