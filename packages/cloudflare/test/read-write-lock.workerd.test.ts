import { runReadWriteLockConformance } from "../../core/test/conformance/read-write-lock.conformance.ts";
import { WORKERD_TARGET, workerdRedis } from "./workerd/upstash.ts";

// The core's ReadWriteLock conformance suite, inside workerd.
runReadWriteLockConformance({ name: WORKERD_TARGET, makeRedis: workerdRedis });
