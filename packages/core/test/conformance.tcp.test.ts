import { runOnSingleServer } from "./conformance/single-server.ts";

// The conformance rows of the suite table (conformance/suites.ts) on TCP: node-redis → redis-server.
await runOnSingleServer("tcp", "conformance");
