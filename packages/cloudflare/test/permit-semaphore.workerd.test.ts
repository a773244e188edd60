import { runPermitSemaphoreConformance } from "../../core/test/conformance/permit-semaphore.conformance.ts";
import { WORKERD_TARGET, workerdRedis } from "./workerd/upstash.ts";

// The core's PermitExpirableSemaphore conformance suite, inside workerd.
runPermitSemaphoreConformance({ name: WORKERD_TARGET, makeRedis: workerdRedis });
