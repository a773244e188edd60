import type { LockLibrary } from "../libraries/index.ts";
import type { Network } from "../net/network.ts";
import { envFor } from "../run/contention.ts";

export interface OverrunResult {
  readonly library: string;
  /** The holder learned its lease was gone before its work ended (and stopped). */
  readonly told: boolean;
  /** Time both worked at once, ms. */
  readonly overlapMs: number;
  /** From the first lease's end to the second holder's entry, ms (how fast the lock moved on). */
  readonly takeoverMs: number;
  readonly requests: number;
}

const LEASE_MS = 200;
const WORK_MS = 600;

/**
 * A holder whose work (600 ms) outlasts its fixed lease (200 ms), and a second worker waiting
 * for the lock. What a lock can do: tell the first holder (so it stops) and let the second in
 * soon after the lease ends. What none can do: make the first holder's late writes safe without
 * fencing tokens.
 */
export async function runOverrun(
  network: Network,
  library: LockLibrary,
  rttMs: number,
): Promise<OverrunResult> {
  await network.setLatency(rttMs, 0);
  const env = envFor(network, { ms: rttMs, jitterMs: 0 });
  const [a, b] = await Promise.all([library.worker(env), library.worker(env)]);
  const before = await network.counters();
  const holdA = await a!.acquire({ waitMs: 1_000, leaseMs: LEASE_MS });
  if (holdA === null) throw new Error(`${library.name}: first acquire failed`);
  const enterA = performance.now();
  const second = (async () => {
    const hold = await b!.acquire({ waitMs: 5_000, leaseMs: LEASE_MS });
    const enter = performance.now();
    await new Promise((r) => setTimeout(r, 50));
    await hold?.release().catch(() => undefined);
    return enter;
  })();
  const told = await workUntil(WORK_MS, holdA.signal);
  const exitA = performance.now();
  await holdA.release().catch(() => undefined);
  const enterB = await second;
  await Promise.all([a!.close(), b!.close()]);
  const after = await network.counters();
  return {
    library: library.name,
    told,
    overlapMs: Math.max(0, exitA - enterB),
    takeoverMs: enterB - (enterA + LEASE_MS),
    requests: library.transport === "rest" ? after.http - before.http : after.wire - before.wire,
  };
}

function workUntil(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    signal?.addEventListener("abort", () => (clearTimeout(timer), resolve(true)), { once: true });
  });
}
