import { runLatchRegressions } from "../../core/test/protocol/latch-regressions.ts";
import { WORKERD_TARGET, workerdRedis } from "./workerd/upstash.ts";

// Issue 13 on the CountDownLatch inside workerd: one countDown() counts exactly once however its
// copies are delayed, repeated or settled. Nothing is excluded: no case needs to stop Redis.
runLatchRegressions({ name: WORKERD_TARGET, makeRedis: workerdRedis });
