import { upstashRestBackend } from "@edgelock/core";
import { Redis as IORedis } from "ioredis";
import type { Network } from "./network.ts";

/** What one round trip really costs on this machine beyond the injected R, per transport. */
export interface RoundTripOverhead {
  readonly rest: number;
  readonly tcp: number;
}

/**
 * Times PINGs through the rest-server and through the proxy, at R = 0 and R = `rttMs`, and
 * returns the mean excess over R: scheduling and processing on a loaded machine add to every
 * trip, for every library of that transport alike.
 */
export async function measureOverhead(
  network: Network,
  rttMs: number,
  samples = 10,
): Promise<RoundTripOverhead> {
  const rest = upstashRestBackend(network.rest);
  const signal = new AbortController().signal;
  const tcp = new IORedis(network.proxyUrl, { maxRetriesPerRequest: 0 });
  await new Promise<void>((resolve, reject) => tcp.once("ready", resolve).once("error", reject));
  const time = async (ping: () => Promise<unknown>) => {
    await ping();
    const start = performance.now();
    for (let i = 0; i < samples; i++) await ping();
    return (performance.now() - start) / samples;
  };
  const excess = { rest: 0, tcp: 0 };
  for (const r of [0, rttMs]) {
    await network.setLatency(r, 0);
    excess.rest += ((await time(() => rest.command(["PING"], signal))) - r) / 2;
    excess.tcp += ((await time(() => tcp.ping())) - r) / 2;
  }
  tcp.disconnect();
  return excess;
}
