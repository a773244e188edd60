import { runMultiLockRegressions } from "../../core/test/protocol/multi-lock-regressions.ts";
import { WORKERD_TARGET, workerdRedis } from "./workerd/upstash.ts";

// Issue 13's findings 1 and 2 on a MultiLock slot group, inside workerd. Nothing is excluded: no
// case needs to stop or restart Redis.
runMultiLockRegressions({ name: WORKERD_TARGET, makeRedis: workerdRedis });
