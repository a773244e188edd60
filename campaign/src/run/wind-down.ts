import type { Stack } from "@edgelock/testkit";
import { audit } from "../workload/audit.ts";
import type { World } from "../workload/world.ts";
import type { WorkerClient } from "../world/worker-client.ts";

/**
 * After the run: faults cleared, every client's background work (abandoned acquires, releases
 * retried after dispose) settled, then what is left is read back into the history's finals —
 * waiting long enough for leases whose release stayed unknown to run out.
 */
export async function windDown(
  world: World,
  driverClient: WorkerClient,
  stack: Stack,
): Promise<void> {
  await stack.faults.clear();
  await Promise.all([
    ...world.workers.map((w) => w.wc.client.settled()),
    driverClient.client.settled(),
  ]);
  const { leaseMs, retryWindowMs } = world.settings;
  const finals = await audit(driverClient, world.names, 3 * leaseMs + 2 * retryWindowMs);
  world.recorder.history.finals.push(...finals);
}
