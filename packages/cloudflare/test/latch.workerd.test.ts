import { runLatchConformance } from "../../core/test/conformance/latch.conformance.ts";
import { WORKERD_TARGET, workerdRedis } from "./workerd/upstash.ts";

// The core's CountDownLatch conformance suite, inside workerd.
runLatchConformance({ name: WORKERD_TARGET, makeRedis: workerdRedis });
