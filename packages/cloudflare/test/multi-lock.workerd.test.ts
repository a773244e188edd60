import { runMultiLockConformance } from "../../core/test/conformance/multi-lock.conformance.ts";
import { WORKERD_TARGET, workerdRedis } from "./workerd/upstash.ts";

// The core's MultiLock conformance suite, inside workerd.
runMultiLockConformance({ name: WORKERD_TARGET, makeRedis: workerdRedis });
