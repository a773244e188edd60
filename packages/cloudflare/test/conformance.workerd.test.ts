import { runSuites } from "../../core/test/conformance/suites.ts";
import { WORKERD_TARGET, workerdRedis } from "./workerd/upstash.ts";

// The core's suite table (conformance rows), inside workerd: the edge path users run in production.
await runSuites("workerd", "conformance", { name: WORKERD_TARGET, makeRedis: workerdRedis });
