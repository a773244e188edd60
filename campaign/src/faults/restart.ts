import type { RedisProcess } from "@edgelock/testkit";
import { setPermits } from "../workload/setup.ts";
import type { Fault, FaultContext } from "./fault.ts";

type RestartKind = "restart" | "crash" | "restart-flush";

const HOW: Record<RestartKind, { detail: string; run: (redis: RedisProcess) => Promise<void> }> = {
  restart: { detail: "SIGTERM + start, append-only file kept", run: (redis) => redis.restart() },
  crash: {
    detail: "SIGKILL + start, append-only file kept",
    run: async (redis) => {
      await redis.kill();
      await redis.restart();
    },
  },
  "restart-flush": {
    detail: "restart without its data (as without persistence)",
    run: (redis) => redis.restart({ flush: true }),
  },
};

/**
 * Restarts the lock service's Redis: gracefully or by SIGKILL with its append-only file (every
 * acknowledged write survives), or without its data. A canary key tells afterwards whether the
 * data survived; only a detected loss relaxes the checker. After a loss the semaphores are set up
 * again, as an operator would.
 */
export function restartFault(kind: RestartKind, weight: number): Fault {
  return {
    kind,
    weight,
    async inject(ctx: FaultContext) {
      const { stack, recorder, canary } = ctx;
      await canary.plant();
      const record = recorder.fault(kind, HOW[kind].detail);
      await HOW[kind].run(stack.redis);
      const lost = await canary.check(recorder, record.startSeq, HOW[kind].detail);
      if (lost) await setPermits(ctx.driverClient, ctx.world.names);
      record.endSeq = recorder.next();
    },
  };
}
