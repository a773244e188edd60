import type { FinalRecord } from "../history/types.ts";
import type { WorkerClient } from "../world/worker-client.ts";
import { pause } from "./pause.ts";
import { untilDone } from "./setup.ts";
import type { Names } from "./world.ts";

/**
 * After the run, once every client settled: nothing is left held (leases that ended with an
 * unknown release are given time to run out: up to `graceMs`), and every semaphore has all of
 * its permits back. Each reading becomes a final record.
 */
export async function audit(
  wc: WorkerClient,
  names: Names,
  graceMs: number,
): Promise<FinalRecord[]> {
  const c = wc.client;
  const probes: [string, FinalRecord["what"], number, () => Promise<number>][] = [
    ...names.locks.map(
      (n) => [`lock:${n}`, "locked", 0, async () => Number(await c.lock(n).isLocked())] as const,
    ),
    ...names.fairLocks.map(
      (n) =>
        [`fair:${n}`, "locked", 0, async () => Number(await c.fairLock(n).isLocked())] as const,
    ),
    ...names.readWriteLocks.flatMap((n) => [
      [
        `rw:${n}:write`,
        "locked",
        0,
        async () => Number(await c.readWriteLock(n).write.isLocked()),
      ] as const,
      [
        `rw:${n}:read`,
        "locked",
        0,
        async () => Number(await c.readWriteLock(n).read.isLocked()),
      ] as const,
    ]),
    ...names.semaphores.map(
      ({ name, permits }) =>
        [`sem:${name}`, "available", permits, () => c.semaphore(name).availablePermits()] as const,
    ),
    ...names.permitSemaphores.flatMap(({ name, permits }) => [
      [
        `pes:${name}`,
        "live",
        0,
        async () => (await c.permitExpirableSemaphore(name).status()).live,
      ] as const,
      [
        `pes:${name}`,
        "available",
        permits,
        () => c.permitExpirableSemaphore(name).availablePermits(),
      ] as const,
    ]),
  ].map(([resource, what, expected, read]) => [resource, what, expected, read]);
  const deadline = performance.now() + graceMs;
  const finals: FinalRecord[] = [];
  for (const [resource, what, expected, read] of probes) {
    let observed = await untilDone(wc, `audit ${resource}`, read);
    while (observed !== expected && performance.now() < deadline) {
      await pause(100);
      observed = await untilDone(wc, `audit ${resource}`, read);
    }
    finals.push({ resource, what, expected, observed: observed ?? Number.NaN });
  }
  return finals;
}
