import { runInspectConformance } from "../../core/test/conformance/inspect.conformance.ts";
import { WORKERD_TARGET, workerdRedis } from "./workerd/upstash.ts";

// The core's inspection API conformance suite, inside workerd.
runInspectConformance({ name: WORKERD_TARGET, makeRedis: workerdRedis });
