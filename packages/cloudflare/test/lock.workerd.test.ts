import { runLockConformance } from "../../core/test/conformance/lock.conformance.ts";
import { WORKERD_TARGET, workerdRedis } from "./workerd/upstash.ts";

// The core's Lock conformance suite, inside workerd: the edge path users run in production.
runLockConformance({ name: WORKERD_TARGET, makeRedis: workerdRedis });
