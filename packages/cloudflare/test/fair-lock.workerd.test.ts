import { runFairLockConformance } from "../../core/test/conformance/fair-lock.conformance.ts";
import { WORKERD_TARGET, workerdRedis } from "./workerd/upstash.ts";

// The core's FairLock conformance suite, inside workerd.
runFairLockConformance({ name: WORKERD_TARGET, makeRedis: workerdRedis });
