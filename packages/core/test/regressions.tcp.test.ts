import { runOnSingleServer } from "./conformance/single-server.ts";

// The regressions rows of the suite table (conformance/suites.ts) on TCP: node-redis → redis-server.
await runOnSingleServer("tcp", "regressions");
