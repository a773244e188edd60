import { runOnSingleServer } from "./conformance/single-server.ts";

// The regressions rows of the suite table (conformance/suites.ts) on REST: @upstash/redis → rest-server.
await runOnSingleServer("rest", "regressions");
