import { makeWorkerClient } from "../world/worker-client.ts";
import { pause } from "../workload/pause.ts";
import { watchSignal } from "../workload/section.ts";
import type { Fault, FaultContext } from "./fault.ts";

const FROZEN_LEASE_MS = 400;

/**
 * A holder frozen past its lease (a GC pause, a stopped VM) that then writes as if it still held:
 * it takes a Lock with a short fixed lease, writes, freezes for three leases while the workers
 * take the lock, then writes again and releases. Its signal must have aborted by then, and its
 * stale write must be rejected by the fence once a newer holder wrote.
 */
export const frozenHolderFault: Fault = {
  kind: "frozen-holder",
  weight: 1,
  async inject(ctx: FaultContext) {
    const { world, rng, recorder } = ctx;
    const id = `frozen-${recorder.history.faults.length}`;
    const wc = makeWorkerClient(id, world.settings, recorder);
    const name = rng.pick(world.names.locks);
    const resource = `lock:${name}`;
    const record = recorder.fault(
      "frozen-holder",
      `${id} on ${resource}, lease ${FROZEN_LEASE_MS} ms, frozen ${3 * FROZEN_LEASE_MS} ms`,
    );
    const got = await wc.track("lock acquire", () =>
      wc.client.lock(name).acquire({ waitMs: 5_000, leaseMs: FROZEN_LEASE_MS }),
    );
    if (got.ok) {
      const held = got.value;
      const section = recorder.enter({
        worker: id,
        primitive: "lock",
        mode: "exclusive",
        resources: [resource],
        capacity: 1,
        fences: { [resource]: held.fence },
        frozen: true,
      });
      watchSignal(recorder, section, held.signal);
      recorder.write(
        section,
        resource,
        held.fence,
        await world.resources.write(resource, held.fence),
      );
      await pause(3 * FROZEN_LEASE_MS); // frozen: ignores its signal
      recorder.thaw(section);
      recorder.write(
        section,
        resource,
        held.fence,
        await world.resources.write(resource, held.fence),
      );
      recorder.exit(section);
      const released = await wc.track("lock release", () => held.release());
      if (released.ok) recorder.end(section, "released");
      else {
        if (released.code === "NOT_HELD") recorder.tell(section, "release:NOT_HELD");
        recorder.end(section, released.code === "NOT_HELD" ? "lost" : "unknown");
      }
      record.injected = 1;
    }
    await wc.client.settled();
    record.endSeq = recorder.next();
  },
};
