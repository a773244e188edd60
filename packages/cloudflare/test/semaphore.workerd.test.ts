import { runSemaphoreConformance } from "../../core/test/conformance/semaphore.conformance.ts";
import { WORKERD_TARGET, workerdRedis } from "./workerd/upstash.ts";

// The core's Semaphore conformance suite, inside workerd.
runSemaphoreConformance({ name: WORKERD_TARGET, makeRedis: workerdRedis });
